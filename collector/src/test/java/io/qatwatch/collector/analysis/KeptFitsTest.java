package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.analysis.FleetAnalysis.History;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.collector.window.CreepAnalysis.Fit;
import io.qatwatch.collector.window.CreepSettings;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A summary holds each creep fit's line, and a restart makes the fit from it and the kept nights (the step from the
 * line's slope and the nights' spacing) instead of fitting the nights again: the same fits as the history that wrote it,
 * and a body whose fit the nights cannot have is damaged.
 */
class KeptFitsTest {

    private static final AnalysisConfig CONFIG = GeneratedFleetGoldenTest.CONFIG.analysis();
    static final String SCOPE = "sql1/MSSQLSERVER";
    static final Instant NOW = berlin(LocalDate.of(2026, 3, 21), 12, 0);

    /** A weekly full of Sales and differentials between, each night 4 minutes longer: the margins creep. */
    private static List<BackupRecord> creeping() {
        List<BackupRecord> out = new ArrayList<>();
        for (int d = 1; d <= 20; d++) {
            LocalDate day = LocalDate.of(2026, 3, d);
            out.add(backup("Sales", d % 7 == 1 ? "D" : "I", berlin(day, 22, 0), 3_600 + 240L * d, 50_000_000_000L,
                    "MS_XPRESS", "DISK"));
            out.add(backup("stock", "I", berlin(day, 23, 45), 600, 2_000_000_000L, "MS_XPRESS", "DISK"));
        }
        return out;
    }

    /** The history of {@link #creeping()} as a start from rows keeps it, its summary's body into {@code body[0]}. */
    static KeptHistory written(AnalysisConfig config, byte[][] body) {
        NightlyWindows.Nights nights = new NightlyWindows.Nights(config.businessCalendars().get(config.defaultCalendar()));
        List<BackupRecord> rows = creeping();
        InstanceState i = instance("MSSQLSERVER", NOW, List.of(db("Sales", "FULL"), db("stock", "FULL")), rows, List.of());
        History built = FleetAnalysis.history(SCOPE, nights, i, rows, config, NOW);
        KeptHistory kept = new KeptHistory(SCOPE, nights, config, built, Instant.MAX, NOW, UnaryOperator.identity());
        SummaryOutput out = new SummaryOutput(NOW);
        kept.write(out);
        body[0] = out.toByteArray();
        return kept;
    }

    private static KeptHistory read(byte[] body, AnalysisConfig config) {
        NightlyWindows.Nights nights = new NightlyWindows.Nights(config.businessCalendars().get(config.defaultCalendar()));
        return KeptHistory.read(new SummaryInput(body, UnaryOperator.identity()), SCOPE, nights, config);
    }

    @Test
    void aHistoryReadBackHasTheFitsOfTheOneThatWroteIt() {
        byte[][] body = new byte[1][];
        KeptHistory kept = written(CONFIG, body);
        Map<NightKind, Fit> fits = kept.history().fits();
        assertThat(fits).as("differential nights fitted, too few full nights").containsOnlyKeys(NightKind.DIFFERENTIAL);
        assertThat(fits.get(NightKind.DIFFERENTIAL).line().slope()).as("the margins creep").isNegative();

        KeptHistory read = read(body[0], CONFIG);
        assertThat(read.advance(NOW)).isTrue();
        Map<NightKind, Fit> back = read.history().fits();
        assertThat(back).containsOnlyKeys(fits.keySet());
        Fit a = fits.get(NightKind.DIFFERENTIAL);
        Fit b = back.get(NightKind.DIFFERENTIAL);
        assertThat(b.line()).isEqualTo(a.line());
        assertThat(b.step()).isEqualTo(a.step()).isGreaterThan(0);
        assertThat(new ArrayList<>(b.nights())).isEqualTo(new ArrayList<>(a.nights()));
        assertThat(b.latestX()).isEqualTo(a.latestX());
        assertThat(b.latestMorning()).isEqualTo(a.latestMorning());
        assertThat(b.safety()).isEqualTo(a.safety());
        assertThat(new ArrayList<>(b.drivers())).isEqualTo(new ArrayList<>(a.drivers())).isNotEmpty();
        assertThat(b.project(LocalDate.of(2026, 3, 21))).isEqualTo(a.project(LocalDate.of(2026, 3, 21)));
    }

    @Test
    void aBodyWithAFitOfNightsTooFewForOneIsDamaged() {
        byte[][] body = new byte[1][];
        written(CONFIG, body);
        // read under settings that need more nights than were kept: the fit written cannot be theirs
        AnalysisConfig more = new AnalysisConfig(CONFIG.calendars(), CONFIG.defaultCalendar(), CONFIG.hostGroups(),
                CONFIG.windows(), new CreepSettings(30, 25, null, null), CONFIG.agentSilentMinutes(),
                CONFIG.spillMinPercentComplete(), CONFIG.baselineFulls(), CONFIG.baselineMinSeconds(), CONFIG.compression());
        assertThatThrownBy(() -> read(body[0], more)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("creep fit of DIFFERENTIAL nights");
    }
}
