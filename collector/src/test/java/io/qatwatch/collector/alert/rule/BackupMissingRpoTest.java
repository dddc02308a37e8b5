package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 31 item 8 (DBA Dash users' request): a weekly full and daily differentials. The differential's recovery point
 * objective is met by a newer full, so the night after the full (no differential since Saturday) fires nothing.
 */
class BackupMissingRpoTest {

    private static final AlertsConfig CONFIG = AlertsConfig.DEFAULTS.validate();
    private static final LocalDate SUNDAY = LocalDate.of(2026, 11, 29);

    /** Two weeks of a full on Sundays and a differential on the other days, 01:00 Berlin; {@code withFull} the last Sunday's. */
    private static List<BackupRecord> history(boolean withLastFull) {
        List<BackupRecord> out = new ArrayList<>();
        for (LocalDate d = SUNDAY.minusDays(14); !d.isAfter(SUNDAY); d = d.plusDays(1)) {
            boolean full = d.getDayOfWeek() == DayOfWeek.SUNDAY;
            if (full && d.equals(SUNDAY) && !withLastFull) {
                continue;
            }
            out.add(backup("Sales", full ? "D" : "I", berlin(d, 1, 0), 1800, 50_000_000_000L, "MS_XPRESS", "UNC"));
        }
        return out;
    }

    private static List<String> missing(List<BackupRecord> backups, Instant now) {
        FleetState fleet = new FleetState(List.of(Histories.host("sql01", now, Histories.instance("PROD", now,
                List.of(Histories.db("Sales", "SIMPLE")), backups, List.of()))));
        return fired(CONFIG.evaluator().evaluate(fleet, now).alerts()).stream().filter(a -> a.startsWith("backup-missing")).toList();
    }

    @Test
    void aNewerFullMeetsTheDifferentialsObjective() {
        // Monday 00:30: the newest differential is Saturday's, 47.5 h old (objective 36 h); Sunday's full is 23.5 h old
        Instant mondayNight = berlin(SUNDAY.plusDays(1), 0, 30);
        assertThat(missing(history(true), mondayNight)).isEmpty();
        assertThat(missing(history(false), mondayNight)).as("without Sunday's full the differentials alone are late")
                .containsExactly("backup-missing sql01 / PROD / Sales [full or differential]");
    }

    @Test
    void anOverdueBackupIsTheSameAlertAMinuteAndAnHourLater() {
        // without Sunday's full the differentials' objective is missed from Sunday 13:30 Berlin (Saturday 01:30 + 36 h)
        Instant first = berlin(SUNDAY.plusDays(1), 0, 30);
        List<Alert> at = overdue(history(false), first);
        assertThat(at).singleElement().extracting(Alert::summary)
                .isEqualTo("No full or differential backup of Sales since 2026-11-28T00:30Z");
        // the alert names when the newest backup finished, not its age: its stored row is not rewritten each minute
        for (long later : new long[] {60, 3600, 86_400}) {
            assertThat(overdue(history(false), first.plusSeconds(later))).as("%d s later", later).isEqualTo(at);
        }
    }

    private static List<Alert> overdue(List<BackupRecord> backups, Instant now) {
        FleetState fleet = new FleetState(List.of(Histories.host("sql01", now, Histories.instance("PROD", now,
                List.of(Histories.db("Sales", "SIMPLE")), backups, List.of()))));
        return CONFIG.evaluator().evaluate(fleet, now).alerts().stream().filter(a -> a.rule().equals("backup-missing") && "full or differential".equals(a.subject())).toList();
    }
}
