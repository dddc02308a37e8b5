package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.rule.RulesConfig;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetCompression.Row;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The numbers of the blog posts qatwatch grew from, as msdb would have recorded them (whole seconds, a little
 * night-to-night jitter), and the verdicts a DBA draws from them.
 */
class SeedVerdictsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
    private static final long GB = 1_000_000_000L;
    private static final AtomicLong IDS = new AtomicLong(1);

    /**
     * {@code seconds.length} backups of {@code db}, one a night before {@link #NOW}, each {@code bytes} large and
     * compressed to {@code compressedShare} of it.
     */
    static List<BackupRecord> runs(String db, String algorithm, String target, boolean copyOnly, long bytes,
                                   double compressedShare, long... seconds) {
        List<BackupRecord> out = new ArrayList<>();
        for (int n = 0; n < seconds.length; n++) {
            Instant start = NOW.minus(Duration.ofDays(n + 1)).minus(Duration.ofHours(copyOnly ? 4 : 6));
            out.add(new BackupRecord(IDS.incrementAndGet(), db, Histories.guid(db), "D", copyOnly, start,
                    start.plusSeconds(seconds[n]), true, bytes, Math.round(bytes * compressedShare), algorithm, true,
                    "NO_Encryption", null, null, target.equals("URL") ? "URL" : "DISK", target));
        }
        return out;
    }

    private static List<Row> rows(RulesConfig rules, List<DatabaseInfo> dbs, List<BackupRecord> backups) {
        AlertsConfig config = new AlertsConfig(null, null, null, null, rules, null, null).validate();
        FleetState fleet = new FleetState(List.of(Histories.host("sql01", NOW,
                Histories.instance("MSSQLSERVER", NOW, dbs, backups, List.of()))));
        return new FleetAnalysis(fleet, config.analysis(), NOW).compression().rows();
    }

    private static Row only(List<Row> rows) {
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void theShareCaseTwiceAsFastInSoftwareModeIsFaster() {
        // 499.6 s with MS_XPRESS against 238.6 s with QAT_DEFLATE (2.09x) to a share, VMware guest, software mode
        List<BackupRecord> b = new ArrayList<>(runs("Sales", "MS_XPRESS", "UNC", false, 120 * GB, 0.36, 500, 498, 503, 499, 501));
        b.addAll(runs("Sales", "QAT_DEFLATE", "UNC", true, 120 * GB, 0.35, 239, 238, 240));
        Comparison c = only(rows(null, List.of(Histories.db("Sales", "FULL")), b)).comparison();

        assertThat(c.verdict()).isEqualTo(Verdict.FASTER);
        assertThat(c.baseline().label()).isEqualTo("MS_XPRESS");
        assertThat(c.alternative().algorithm()).isEqualTo("QAT_DEFLATE");
        assertThat(c.speedGainPercent()).as("500 s / 239 s - 1").isCloseTo((500.0 / 239 - 1) * 100, within(0.01));
        assertThat(c.kind()).isEqualTo(BackupKind.FULL);
        assertThat(c.target()).isEqualTo("UNC");
        assertThat(c.current().label()).as("the jobs still use MS_XPRESS; the QAT backups were copy-only tests")
                .isEqualTo("MS_XPRESS");
        assertThat(c.stats(c.alternative()).orElseThrow().copyOnlyBackups()).isEqualTo(3);
    }

    @Test
    void localNvmeTwelveToEightMinutesIsFaster() {
        // 12 -> 8 min, 47 % -> 54 % saved: 50 % faster, compressed 13 % smaller (under the 20 % for SMALLER)
        List<BackupRecord> b = new ArrayList<>(runs("Orders", "MS_XPRESS", "LOCAL", false, 300 * GB, 0.53, 722, 719, 720, 725));
        b.addAll(runs("Orders", "QAT_DEFLATE", "LOCAL", false, 300 * GB, 0.46, 480, 481, 478));
        Comparison c = only(rows(null, List.of(Histories.db("Orders", "FULL")), b)).comparison();

        assertThat(c.verdict()).isEqualTo(Verdict.FASTER);
        assertThat(c.speedGainPercent()).isCloseTo((721.0 / 480 - 1) * 100, within(0.01));
        assertThat(c.sizeGainPercent()).isCloseTo((1 - 0.46 / 0.53) * 100, within(0.01));
        assertThat(c.stats(c.baseline()).orElseThrow().savedPercent()).isCloseTo(47.0, within(0.01));
    }

    @Test
    void twentyFourToTwentyMinutesIsNoGainUnderTheTwentyFivePercentRule() {
        List<BackupRecord> b = new ArrayList<>(runs("Stock", "MS_XPRESS", "LOCAL", false, 500 * GB, 0.50, 1440, 1438, 1445));
        b.addAll(runs("Stock", "QAT_DEFLATE", "LOCAL", false, 500 * GB, 0.49, 1200, 1203, 1198));
        List<DatabaseInfo> dbs = List.of(Histories.db("Stock", "FULL"));
        Comparison c = only(rows(null, dbs, b)).comparison();

        assertThat(c.speedGainPercent()).as("1440 s / 1200 s: 20 %").isCloseTo(20.0, within(0.01));
        assertThat(c.verdict()).isEqualTo(Verdict.NO_GAIN);

        RulesConfig fifteen = new RulesConfig(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                new VerdictThresholds(null, 15.0, null, null, null, null), null, null);
        assertThat(only(rows(fifteen, dbs, b)).comparison().verdict()).as("a DBA who switches from 15 %").isEqualTo(Verdict.FASTER);
    }

    @Test
    void aTdeDatabaseOverTheLanEightyOneToEightyThreeMinutesIsNoGain() {
        // TDE pages barely compress: both save about 1 %
        List<BackupRecord> b = new ArrayList<>(runs("Payroll", "MS_XPRESS", "UNC", false, 900 * GB, 0.99, 4860, 4850, 4875));
        b.addAll(runs("Payroll", "QAT_DEFLATE", "UNC", false, 900 * GB, 0.99, 4980, 4990, 4975));
        DatabaseInfo tde = new DatabaseInfo("Payroll", Histories.guid("Payroll"), "FULL", "ENCRYPTED", null, null, null);
        Comparison c = only(rows(null, List.of(tde), b)).comparison();

        assertThat(c.tde()).isTrue();
        assertThat(c.backupEncrypted()).isFalse();
        assertThat(c.speedGainPercent()).isCloseTo((4860.0 / 4980 - 1) * 100, within(0.01));
        assertThat(c.verdict()).isEqualTo(Verdict.NO_GAIN);
    }

    /**
     * 89 -> 120 min with 18.8 % -> 38.8 % saved: the compressed backup is 24.6 % smaller (1 - 61.2 / 81.2), a size
     * gain beyond the 20 %; but MB/s fell 25.8 % (1 - 89 / 120), beyond the 10 % a size gain may cost. So no gain
     * counts, and the slowdown does: SLOWER, with the size gain still shown in sizeGainPercent.
     */
    @Test
    void theUnencryptedBlobDatabaseTwiceAsSmallButThirtyOneMinutesSlowerIsSlower() {
        List<BackupRecord> b = new ArrayList<>(runs("Blobs", "MS_XPRESS", "UNC", false, 2000 * GB, 0.812, 5340, 5330, 5355));
        b.addAll(runs("Blobs", "QAT_DEFLATE", "UNC", false, 2000 * GB, 0.612, 7200, 7190, 7230));
        Comparison c = only(rows(null, List.of(Histories.db("Blobs", "FULL")), b)).comparison();

        assertThat(c.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(c.speedGainPercent()).isCloseTo(-25.83, within(0.01));
        assertThat(c.sizeGainPercent()).isCloseTo(24.63, within(0.01));

        RulesConfig storageFirst = new RulesConfig(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                new VerdictThresholds(null, null, null, null, 30.0, null), null, null);
        assertThat(only(rows(storageFirst, List.of(Histories.db("Blobs", "FULL")), b)).comparison().verdict())
                .as("a DBA who accepts 30 % slower for storage").isEqualTo(Verdict.SMALLER);
    }

    @Test
    void oneBackupEachIsNotEnoughData() {
        List<BackupRecord> b = new ArrayList<>(runs("Hr", "MS_XPRESS", "LOCAL", false, 80 * GB, 0.4, 600));
        b.addAll(runs("Hr", "QAT_DEFLATE", "LOCAL", true, 80 * GB, 0.4, 300));
        Comparison c = only(rows(null, List.of(Histories.db("Hr", "FULL")), b)).comparison();

        assertThat(c.verdict()).isEqualTo(Verdict.NOT_ENOUGH_DATA);
        assertThat(c.speedGainPercent()).as("measured, shown, not counted").isCloseTo(100.0, within(0.01));
    }
}
