package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.instance;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.analysis.FleetAnalysis.History;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The alert stage holds one lower-case name per database of an instance, shared by its database identities and its
 * spill tails, instead of a copy each (two strings of ~48 bytes a database): after {@code shareNames} (for the tails:
 * as the kept history is made, or read back from a summary) both are keyed by
 * the strings the fleet's shared table gives, and they answer as before.
 */
class LowerCaseNamesShareTest {

    private static final AnalysisConfig CONFIG = GeneratedFleetGoldenTest.CONFIG.analysis();
    private static final Instant NOW = berlin(LocalDate.of(2026, 3, 12), 12, 0);

    private static InstanceState sales(List<BackupRecord> backups) {
        return instance("MSSQLSERVER", NOW, List.of(db("Sales", "FULL"), db("HR_Archive", "SIMPLE"), db("stock", "FULL")),
                backups, List.of());
    }

    private static List<BackupRecord> nights() {
        List<BackupRecord> out = new ArrayList<>();
        for (int d = 1; d <= 9; d++) {
            LocalDate day = LocalDate.of(2026, 3, d);
            out.add(backup("Sales", "D", berlin(day, 22, 0), 3_600, 50_000_000_000L, "MS_XPRESS", "DISK"));
            out.add(backup("HR_Archive", "D", berlin(day, 23, 30), 1_200, 8_000_000_000L, "MS_XPRESS", "DISK"));
            out.add(backup("stock", "I", berlin(day, 23, 45), 600, 2_000_000_000L, "MS_XPRESS", "DISK"));
        }
        return out;
    }

    /** The fleet's shared table: each string the first equal one given, as the alert stage's. */
    private static final class Canon {
        final SharedStrings strings = new SharedStrings();

        String share(String s) {
            return strings.share(s);
        }
    }

    @Test
    void identitiesKeyByTheSharedNamesAndAnswerAsBefore() {
        InstanceState i = sales(nights());
        DatabaseIdentities before = DatabaseIdentities.of("sql1/MSSQLSERVER", i);
        DatabaseIdentities ids = DatabaseIdentities.of("sql1/MSSQLSERVER", i);
        Canon canon = new Canon();
        ids.shareNames(canon::share);

        assertThat(ids.tde(i)).isEqualTo(before.tde(i)).containsKeys("sales", "hr_archive", "stock");
        for (BackupRecord b : i.backups()) {
            assertThat(ids.key(b)).isEqualTo(before.key(b));
            assertThat(ids.onSecondary(b)).isEqualTo(before.onSecondary(b));
        }
        for (String name : ids.tde(i).keySet()) {
            assertThat(name).as("keyed by the shared string").isSameAs(canon.share(new String(name)));
        }
    }

    @Test
    void tailsKeyByTheSharedNamesAndKeepThemWhenANightFinishes() {
        BusinessCalendar calendar = CONFIG.businessCalendars().get(CONFIG.defaultCalendar());
        NightlyWindows.Nights nights = new NightlyWindows.Nights(calendar);
        List<BackupRecord> rows = nights();
        Instant now = berlin(LocalDate.of(2026, 3, 10), 12, 0);
        InstanceState i = sales(rows);
        History built = FleetAnalysis.history("sql1/MSSQLSERVER", nights, i, rows, CONFIG, now);
        Map<String, Long> tailsBefore = Map.copyOf(new KeptHistory("sql1/MSSQLSERVER", nights, CONFIG, built, Instant.MAX, now,
                UnaryOperator.identity()).history().tails());
        assertThat(tailsBefore).containsKeys("sales", "hr_archive", "stock");

        Canon canon = new Canon();
        KeptHistory kept = new KeptHistory("sql1/MSSQLSERVER", nights, CONFIG, built, Instant.MAX, now, canon::share);
        assertThat(kept.history().tails()).isEqualTo(tailsBefore);
        assertKeyedByShared(kept.history().tails(), canon);

        // read back from a summary whose strings go through the same table: keyed by the shared names as well
        SummaryOutput out = new SummaryOutput(now);
        kept.write(out);
        KeptHistory read = KeptHistory.read(new SummaryInput(out.toByteArray(), canon::share), "sql1/MSSQLSERVER", nights,
                CONFIG);
        assertThat(read.advance(now)).isTrue();
        assertThat(read.history().tails()).isEqualTo(tailsBefore);
        assertKeyedByShared(read.history().tails(), canon);

        // tonight's backups, then the morning after: a night finishes and its tails keep the shared names
        for (BackupRecord b : List.of(backup("Sales", "D", berlin(LocalDate.of(2026, 3, 10), 22, 0), 4_000,
                50_000_000_000L, "MS_XPRESS", "DISK"), backup("Reports2", "D", berlin(LocalDate.of(2026, 3, 10), 22, 30),
                900, 1_000_000_000L, "MS_XPRESS", "DISK"))) {
            assertThat(kept.add(FleetAnalysis.toBackup("sql1/MSSQLSERVER", b, DatabaseIdentities.of("sql1/MSSQLSERVER", i)),
                    berlin(LocalDate.of(2026, 3, 10), 23, 59))).isTrue();
        }
        Instant morning = berlin(LocalDate.of(2026, 3, 11), 12, 0);
        assertThat(kept.advance(morning)).isTrue();
        Map<String, Long> after = kept.history().tails();
        assertThat(after).containsKeys("sales", "hr_archive", "stock", "reports2");
        Map<String, Boolean> keys = new IdentityHashMap<>();
        after.keySet().forEach(k -> keys.put(k, true));
        for (String name : List.of("sales", "hr_archive", "stock")) {
            assertThat(keys).as("%s keyed by the shared string", name).containsKey(canon.share(new String(name)));
        }
    }

    private static void assertKeyedByShared(Map<String, Long> tails, Canon canon) {
        Map<String, Boolean> keys = new IdentityHashMap<>();
        tails.keySet().forEach(k -> keys.put(k, true));
        for (String name : tails.keySet()) {
            assertThat(keys).as("%s keyed by the shared string", name).containsKey(canon.share(new String(name)));
        }
    }
}
