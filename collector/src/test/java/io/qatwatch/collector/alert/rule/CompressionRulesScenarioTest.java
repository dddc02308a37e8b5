package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.fired;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The compression verdicts where a DBA meets them: the remedy in a creep alert, qat-no-gain on a host whose jobs
 * switched to QAT for nothing, and compression-worth-trying on a creeping host that never tried QAT.
 */
class CompressionRulesScenarioTest {

    private static final CalendarConfig RETAIL = new CalendarConfig("retail", "Europe/Berlin",
            Map.of("mon-sun", "07:00-19:00"), List.of(), 60);
    private static final AlertsConfig CONFIG = new AlertsConfig(List.of(RETAIL), null, null, null, null, null, null).validate();
    private static final LocalDate D0 = LocalDate.of(2026, 1, 5);
    private static final AtomicLong IDS = new AtomicLong(50_000);
    private static final QatSoftware QATZIP = new QatSoftware(List.of(), List.of(), List.of(),
            List.of(new SoftwareItem("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.9.0", null)), List.of(), List.of(),
            List.of());
    private static final ServerInfo SQL2022 = new ServerInfo("16.0.4135.4", 16, "Enterprise Edition", 3, "SQLFRA01",
            "SQLFRA01\\PROD", false);

    private static BackupRecord full(String db, Instant start, long bytes, double bytesPerSecond, String algorithm, boolean copyOnly) {
        return new BackupRecord(IDS.incrementAndGet(), db, Histories.guid(db), "D", copyOnly, start,
                start.plusSeconds(Math.round(bytes / bytesPerSecond)), true, bytes, bytes / 3, algorithm, true, "NO_Encryption",
                null, null, "DISK", "LOCAL");
    }

    /** SalesDW: 2 TB growing 20 GB a week, a nightly full at 00:05 with MS_XPRESS to local disk at 100 MB/s (decimal). */
    private static long bytes(int night) {
        return 2_000_000_000_000L + Math.round(night * 20_000_000_000.0 / 7);
    }

    private static List<BackupRecord> nightlyFulls(int nights) {
        List<BackupRecord> out = new ArrayList<>();
        for (int k = 0; k < nights; k++) {
            out.add(full("SalesDW", berlin(D0.plusDays(k), 0, 5), bytes(k), 1e8, "MS_XPRESS", false));
        }
        return out;
    }

    /** {@code n} COPY_ONLY test fulls with QAT_DEFLATE on the afternoons of the last nights, at {@code bytesPerSecond}. */
    private static List<BackupRecord> qatTests(int lastNight, int n, double bytesPerSecond) {
        List<BackupRecord> out = new ArrayList<>();
        for (int k = lastNight - n + 1; k <= lastNight; k++) {
            out.add(full("SalesDW", berlin(D0.plusDays(k), 14, 0), bytes(k), bytesPerSecond, "QAT_DEFLATE", true));
        }
        return out;
    }

    private static FleetState fleet(List<BackupRecord> backups, Instant now, LicenceFacts licence, AcceleratorStatus qat) {
        InstanceState prod = new InstanceState("PROD", now.minusSeconds(60), SQL2022, List.of(), List.of(qat),
                backups.stream().map(BackupRecord::databaseName).distinct().map(db -> Histories.db(db, "SIMPLE")).toList(),
                List.of(), List.of(), List.of(), backups);
        return new FleetState(List.of(new HostState("sql-fra-01", Set.of(), now.minusSeconds(60), null,
                new QatFacts(List.of(), QATZIP, false), licence, List.of(prod))));
    }

    private static final LicenceFacts INTEL_CPU = new LicenceFacts(LicenceVerdict.INTEL_CPU, List.of(), true, List.of());

    private static List<String> remedies(Alert creep) {
        return creep.facts().stream().filter(f -> f.label().equals("Remedy")).map(Fact::value).toList();
    }

    /**
     * Hand calculation. Night 29's full: 2e12 + 29 * 2e10 / 7 = 2.082857e12 bytes at 1e8 B/s, 20 829 s = 347.15 min.
     * MS_XPRESS runs at 1e8 / 2^20 = 95.37 MB/s, the six copy-only QAT_DEFLATE tests at 2.5e8 / 2^20 = 238.42 MB/s:
     * switching takes 347.15 * 95.37 / 238.42 = 138.86 min, saving 347.15 - 138.86 = 208.29 min, "3 h 28 min". The
     * trend's margin at night 29 is 81.667 - 0.47619 * 29 = 67.86 min, so 67.86 + 208.29 = 276.15 min then, "4 h 36 min";
     * creeping on at 0.476 min a day, 21 days later (the horizon) it is 276.15 - 10.0 = 266.15 min, "4 h 26 min",
     * still above the 60-minute safety margin.
     */
    @Test
    void theCreepAlertNamesTheMeasuredRemedyWithMinutesAsCalculatedByHand() {
        Instant now = berlin(D0.plusDays(29), 8, 0);
        List<BackupRecord> backups = new ArrayList<>(nightlyFulls(30));
        backups.addAll(qatTests(28, 6, 2.5e8));
        QatModesFacts facts = new QatModesFacts();

        Evaluation e = CONFIG.evaluator().evaluate(fleet(backups, now, INTEL_CPU, facts.software), now);

        assertThat(fired(e.alerts())).as("QAT was tried, so no hint; QAT enabled while the jobs use MS_XPRESS is a mismatch")
                .containsExactly("backup-window-creep sql-fra-01 / PROD [full]", "qat-config-mismatch sql-fra-01 / PROD [xpress]");
        Alert creep = e.alerts().get(0);
        assertThat(remedies(creep)).containsExactly("switching SalesDW to QAT_DEFLATE (SOFTWARE) saves ~3 h 28 min per full, "
                + "as measured on 6 copy-only backups (MS_XPRESS 95.4 MB/s, QAT_DEFLATE (SOFTWARE) 238.4 MB/s, to local disk); "
                + "margin then 4 h 36 min, above the safety margin of 1 h 00 min for the whole horizon (21 days; 4 h 26 min at "
                + "its end)");
        assertThat(creep.details()).contains("Remedy: switching SalesDW");
        assertThat(CompressionRules.savedMinutes(20_829 / 60.0,
                e.analysis().compression().rows().get(0).comparison().stats(
                        e.analysis().compression().rows().get(0).comparison().baseline()).orElseThrow(),
                e.analysis().compression().rows().get(0).comparison().stats(
                        e.analysis().compression().rows().get(0).comparison().alternative()).orElseThrow()))
                .isCloseTo(347.15 - 347.15 * 1e8 / 2.5e8, org.assertj.core.api.Assertions.within(0.05));
    }

    @Test
    void aRemedyThatCannotHoldTheSafetyMarginSaysWhenItRunsOutAndNoneIsInventedWithoutAMeasurement() {
        Instant now = berlin(D0.plusDays(29), 8, 0);
        List<BackupRecord> slightly = new ArrayList<>(nightlyFulls(30));
        // 30 % faster: saves 347.15 * (1 - 1 / 1.3) = 80.1 min; margin then 147.97 min; at 0.47619 min a day it
        // reaches 60 min after 184.7 days from night 29's morning (2026-02-03): 2026-08-07, beyond the horizon
        slightly.addAll(qatTests(28, 3, 1.3e8));
        Alert creep = CONFIG.evaluator().evaluate(fleet(slightly, now, INTEL_CPU, new QatModesFacts().software), now).alerts().stream()
                .filter(a -> a.rule().equals("backup-window-creep")).findFirst().orElseThrow();
        assertThat(remedies(creep)).singleElement().asString().contains("saves ~1 h 20 min per full")
                .contains("margin then 2 h 28 min, above the safety margin");

        List<BackupRecord> slower = new ArrayList<>(nightlyFulls(30));
        slower.addAll(qatTests(28, 6, 0.8e8));
        Evaluation e = CONFIG.evaluator().evaluate(fleet(slower, now, INTEL_CPU, new QatModesFacts().software), now);
        Alert noRemedy = e.alerts().stream().filter(a -> a.rule().equals("backup-window-creep")).findFirst().orElseThrow();
        assertThat(remedies(noRemedy)).as("QAT measured slower: no remedy line").isEmpty();
        assertThat(e.analysis().compression().rows().get(0).comparison().verdict().name()).isEqualTo("SLOWER");

        List<BackupRecord> none = nightlyFulls(30);
        Alert untested = CONFIG.evaluator().evaluate(fleet(none, now, null, new QatModesFacts().software), now).alerts().get(0);
        assertThat(untested.rule()).isEqualTo("backup-window-creep");
        assertThat(remedies(untested)).as("nothing measured, nothing invented").isEmpty();
    }

    /**
     * A steep creep: the full starts 01:00 and takes 120 + 6k minutes on night k, so the margin to 07:00 is
     * 240 - 6k minutes; night 29 leaves 66 min. QAT_DEFLATE measured 1.35x as fast saves 294 * (1 - 1 / 1.35) =
     * 76.2 min ("1 h 16 min"), margin then 142.2 min ("2 h 22 min"); at 6 min a day that is under 60 min again after
     * ceil(82.2 / 6) = 14 days: night 29's morning 2026-02-03 + 14 = 2026-02-17, inside the 21-day horizon.
     */
    @Test
    void aRemedyThatBuysOnlyAFewWeeksSaysWhenTheMarginRunsOutAgain() {
        Instant now = berlin(D0.plusDays(29), 8, 0);
        List<BackupRecord> backups = new ArrayList<>();
        for (int k = 0; k < 30; k++) {
            backups.add(full("Ledger", berlin(D0.plusDays(k), 1, 0), (120 + 6L * k) * 60 * 100_000_000L, 1e8, "MS_XPRESS", false));
        }
        for (int k = 26; k < 29; k++) {
            backups.add(full("Ledger", berlin(D0.plusDays(k), 14, 0), (120 + 6L * k) * 60 * 100_000_000L, 1.35e8, "QAT_DEFLATE", true));
        }
        Alert creep = CONFIG.evaluator().evaluate(fleet(backups, now, INTEL_CPU, new QatModesFacts().software), now).alerts()
                .stream().filter(a -> a.rule().equals("backup-window-creep")).findFirst().orElseThrow();
        assertThat(remedies(creep)).singleElement().asString()
                .startsWith("switching Ledger to QAT_DEFLATE (SOFTWARE) saves ~1 h 16 min per full, as measured on 3 copy-only backups")
                .endsWith("margin then 2 h 22 min, under the safety margin of 1 h 00 min again by 2026-02-17 (within the 21-day horizon)");
    }

    @Test
    void aCreepingIntelHostThatNeverTriedQatGetsACopyOnlyTestToRun() {
        Instant now = berlin(D0.plusDays(29), 8, 0);
        AcceleratorStatus off = new AcceleratorStatus("QAT", "NONE", "NONE_HARDWARE_OFFLOAD_NOT_ENABLED", false, null, null);

        Evaluation e = CONFIG.evaluator().evaluate(fleet(nightlyFulls(30), now, INTEL_CPU, off), now);

        assertThat(fired(e.alerts())).containsExactly("backup-window-creep sql-fra-01 / PROD [full]",
                "compression-worth-trying sql-fra-01 / PROD [full]");
        Alert hint = e.alerts().stream().filter(a -> a.rule().equals("compression-worth-trying")).findFirst().orElseThrow();
        assertThat(hint.severity()).isEqualTo(Severity.INFO);
        assertThat(hint.details())
                .contains("QAT here: licence verdict INTEL_CPU, QAT software installed; SQL Server accelerator mode NONE")
                .contains("First: enable QAT: EXEC sp_configure 'hardware offload enabled', 1; RECONFIGURE; "
                        + "ALTER SERVER CONFIGURATION SET HARDWARE_OFFLOAD = ON (ACCELERATOR = QAT)")
                .contains("Try: BACKUP DATABASE [SalesDW] TO DISK = N'<the job's own target>' WITH COPY_ONLY, "
                        + "COMPRESSION (ALGORITHM = QAT_DEFLATE), STATS = 10; at least 3 times");

        LicenceFacts amd = new LicenceFacts(LicenceVerdict.INTEL_COMPONENT_ONLY, List.of(), true, List.of());
        assertThat(fired(CONFIG.evaluator().evaluate(fleet(nightlyFulls(30), now, amd, off), now).alerts()))
                .as("not where the licence is a grey zone").containsExactly("backup-window-creep sql-fra-01 / PROD [full]",
                        "licence-risk sql-fra-01");
        AcceleratorStatus linux = new AcceleratorStatus("QAT", "NONE", "NONE_HARDWARE_OFFLOAD_LINUX_NOT_SUPPORTED", false, null, null);
        assertThat(fired(CONFIG.evaluator().evaluate(fleet(nightlyFulls(30), now, INTEL_CPU, linux), now).alerts()))
                .as("not on Linux, where SQL Server has no QAT").containsExactly("backup-window-creep sql-fra-01 / PROD [full]");
        List<BackupRecord> tried = new ArrayList<>(nightlyFulls(30));
        tried.addAll(qatTests(28, 1, 0.8e8));
        assertThat(fired(CONFIG.evaluator().evaluate(fleet(tried, now, INTEL_CPU, new QatModesFacts().software), now).alerts()))
                .as("tried once: the verdict waits for more, the hint is done").containsExactly(
                        "backup-window-creep sql-fra-01 / PROD [full]", "qat-config-mismatch sql-fra-01 / PROD [xpress]");
    }

    @Test
    void qatNoGainWhenTheJobsSwitchedToQatForNothingWithTheHostsThatCouldRestoreIt() {
        Instant now = berlin(D0.plusDays(29), 8, 0);
        List<BackupRecord> backups = new ArrayList<>();
        // a small database whose window is not creeping: MS_XPRESS for two weeks, then QAT_DEFLATE, 2 % faster
        for (int k = 0; k < 30; k++) {
            boolean qat = k >= 14;
            backups.add(full("Crm", berlin(D0.plusDays(k), 1, 0), 200_000_000_000L, qat ? 1.02e8 : 1e8,
                    qat ? "QAT_DEFLATE" : "MS_XPRESS", false));
        }
        Evaluation e = CONFIG.evaluator().evaluate(fleet(backups, now, INTEL_CPU, new QatModesFacts().hardware), now);

        assertThat(fired(e.alerts())).containsExactly("qat-no-gain sql-fra-01 / PROD / Crm [full LOCAL]");
        Alert a = e.alerts().get(0);
        assertThat(a.severity()).isEqualTo(Severity.INFO);
        assertThat(a.summary()).isEqualTo("QAT_DEFLATE full backups of Crm to local disk are no faster or smaller than MS_XPRESS");
        assertThat(a.details())
                .contains("Measured: QAT_DEFLATE (HARDWARE): 16 backups, median 33 min, 97.3 MB/s, 66.7 % saved; "
                        + "MS_XPRESS: 14 backups, median 33 min, 95.4 MB/s, 66.7 % saved")
                .contains("Verdict: NO_GAIN (speed gain +2.0 % (faster), size gain 0.0 %; a gain counts from 25.0 % faster or 20.0 % smaller)")
                .contains("Restore burden: QAT_DEFLATE backups restorable on 1 of 1 probed host: sql-fra-01")
                .contains("Msg 17441");
    }

    /** The accelerator rows of an instance with QAT enabled. */
    private static final class QatModesFacts {
        final AcceleratorStatus software = new AcceleratorStatus("QAT", "SOFTWARE", "SOFTWARE_MODE_SOFTWARE_FORCE_OVERRIDE",
                false, "1.9.0-0008", null);
        final AcceleratorStatus hardware = new AcceleratorStatus("QAT", "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU", true,
                "1.9.0-0008", "2.5.0.0014");
    }
}
