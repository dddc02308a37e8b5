package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.testing.Histories;
import io.qatwatch.collector.web.CompressionQuery;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Verdicts that weigh CPU (issue 30), from the published figures qatwatch grew from, as the agent would report them:
 * each backup's CPU seen by polls over its whole run (scaling is {@link CpuEstimate}'s test, the last one here).
 */
class CpuVerdictsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T08:00:00Z");
    private static final long GB = 1_000_000_000L;

    /** {@code backups} with the SQL Server process's CPU (reliable) of {@code cpuSeconds[i]} each. */
    private static List<BackupRecord> withCpu(List<BackupRecord> backups, double... cpuSeconds) {
        List<BackupRecord> out = new ArrayList<>();
        for (int i = 0; i < backups.size(); i++) {
            BackupRecord b = backups.get(i);
            long cpu = Math.round(cpuSeconds[i % cpuSeconds.length] * 1000);
            out.add(b.withCpu(new BackupCpu(cpu / 3, cpu / 3, 5, b.startedAt(), b.finishedAt(), cpu, 6, true, null)));
        }
        return out;
    }

    private static FleetCompression compression(List<BackupRecord> backups) {
        AlertsConfig config = new AlertsConfig(null, null, null, null, null, null, null).validate();
        FleetState fleet = new FleetState(List.of(Histories.host("sql01", NOW,
                Histories.instance("MSSQLSERVER", NOW, List.of(Histories.db("Sales", "FULL")), backups, List.of()))));
        return new FleetAnalysis(fleet, config.analysis(), NOW).compression();
    }

    private static FleetCompression.Row row(List<BackupRecord> backups) {
        List<FleetCompression.Row> rows = compression(backups).rows();
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void intelsFigureFortyThreePercentOfTheCpuAtHigherThroughputIsFasterAndCheaper() {
        // Intel's QAT + zlib-accel guide: 98 % more throughput than zlib, "only 43 % of the CPU cycles per operation".
        List<BackupRecord> b = new ArrayList<>(withCpu(SeedVerdictsTest.runs("Sales", "MS_XPRESS", "LOCAL", false, 200 * GB, 0.40,
                990, 1000, 1010), 1000, 1010, 990));
        b.addAll(withCpu(SeedVerdictsTest.runs("Sales", "QAT_DEFLATE", "LOCAL", false, 200 * GB, 0.40, 500, 505, 510), 430, 434, 426));
        Comparison c = row(b).comparison();

        assertThat(c.verdict()).isEqualTo(Verdict.FASTER_AND_CHEAPER);
        assertThat(c.speedGainPercent()).isCloseTo((1000.0 / 505 - 1) * 100, within(0.01));
        assertThat(c.cpuGainPercent()).as("43 % of the CPU per GB").isCloseTo(57.0, within(0.01));
        AlgorithmStats qat = c.stats(c.alternative()).orElseThrow();
        assertThat(qat.cpuBackups()).isEqualTo(3);
        // 430 CPU seconds over 200 GB (186.26 GiB)
        assertThat(qat.cpuSecondsPerGb().median()).isCloseTo(430.0 / (200 * GB / 1_073_741_824.0), within(0.001));
    }

    @Test
    void sameSpeedWithSeventyOnePercentLessCpuIsCheaperAndNotQatNoGain() {
        List<BackupRecord> b = new ArrayList<>(withCpu(SeedVerdictsTest.runs("Sales", "MS_XPRESS", "LOCAL", false, 200 * GB, 0.40,
                1000, 1010, 995), 1000, 1020, 980));
        // The jobs use QAT_DEFLATE (not copy-only): without CPU this would be NO_GAIN and raise qat-no-gain.
        b.addAll(withCpu(SeedVerdictsTest.runs("Sales", "QAT_DEFLATE", "LOCAL", false, 200 * GB, 0.40, 1002, 998, 1005), 290, 295, 285));
        FleetCompression.Row row = row(b);

        assertThat(row.comparison().verdict()).isEqualTo(Verdict.CHEAPER);
        assertThat(row.comparison().cpuGainPercent()).isCloseTo(71.0, within(1.0));
        assertThat(row.comparison().current().algorithm()).isEqualTo("QAT_DEFLATE");
        Map<String, Object> json = CompressionQuery.json(row);
        assertThat(json.get("verdict")).isEqualTo("CHEAPER");
        assertThat(json.get("cpuNote")).isNull();
        assertThat((double) json.get("cpuGainPercent")).isCloseTo(71.0, within(1.0));
        assertThat(json.get("gains")).as("the row's gains in words, CPU too, as the status page and chat say them")
                .isEqualTo("speed gain -0.2 % (slower), size gain 0.0 %, CPU gain +71.0 % (less CPU)");
        assertThat(compression(b).qatWithoutGainRows()).as("a gain worth keeping: no qat-no-gain").isEmpty();
    }

    @Test
    void softwareModeAtTheSameSpeedCostingMoreCpuIsCostlier() {
        List<BackupRecord> b = new ArrayList<>(withCpu(SeedVerdictsTest.runs("Sales", "MS_XPRESS", "LOCAL", false, 200 * GB, 0.40,
                1000, 1010, 995), 1000, 1020, 980));
        b.addAll(withCpu(SeedVerdictsTest.runs("Sales", "QAT_DEFLATE", "LOCAL", false, 200 * GB, 0.40, 1002, 998, 1005), 1400, 1420, 1390));
        Comparison c = row(b).comparison();

        assertThat(c.verdict()).as("best of one alternative: COSTLIER ranks below NO_GAIN but is that method's verdict")
                .isEqualTo(Verdict.COSTLIER);
        assertThat(c.cpuGainPercent()).isCloseTo(-40.0, within(1.5));
        assertThat(compression(b).qatWithoutGainRows()).as("the jobs use QAT for no gain at a price").hasSize(1);
    }

    @Test
    void paulRandalsUncompressedBackupIsCheaperButSlowerSoItStaysSlower() {
        // SQLskills, 322 MB: compressed 25 % CPU for 21.6 s, uncompressed 5 % for 39.5 s (4 cores): CPU 21.6 s against 7.9 s.
        long bytes = 322L * 1_048_576 * 1000;
        List<BackupRecord> b = new ArrayList<>(withCpu(SeedVerdictsTest.runs("Sales", "MS_XPRESS", "LOCAL", false, bytes, 1 / 4.2,
                216, 215, 217), 21.6 * 100, 21.5 * 100, 21.7 * 100));
        b.addAll(withCpu(SeedVerdictsTest.runs("Sales", null, "LOCAL", false, bytes, 1.0, 395, 394, 396), 7.9 * 100, 7.8 * 100, 8.0 * 100));
        Comparison c = row(b).comparison();

        assertThat(c.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(c.cpuGainPercent()).as("cheaper, but slowness is not bought back by CPU").isCloseTo((1 - 7.9 / 21.6) * 100, within(1.0));
    }

    @Test
    void withoutCpuTheVerdictStaysOnTimeAndSizeAndSaysSo() {
        List<BackupRecord> b = new ArrayList<>(SeedVerdictsTest.runs("Sales", "MS_XPRESS", "LOCAL", false, 200 * GB, 0.40, 1000, 1010, 995));
        b.addAll(withCpu(SeedVerdictsTest.runs("Sales", "QAT_DEFLATE", "LOCAL", false, 200 * GB, 0.40, 500, 505, 510), 430));
        FleetCompression.Row row = row(b);

        assertThat(row.comparison().verdict()).isEqualTo(Verdict.FASTER);
        assertThat(row.comparison().cpuGainPercent()).isNull();
        assertThat((String) CompressionQuery.json(row).get("cpuNote")).startsWith("CPU not observed on enough backups of both methods");
        assertThat((String) CompressionQuery.json(row).get("gains")).as("no CPU gain where CPU was not observed")
                .startsWith("speed gain +").doesNotContain("CPU");
    }

    @Test
    void aFigureCoveringLessThanHalfTheRunIsNotUsedAndAnUnreliableProcessFallsBackToTheRequest() {
        BackupRecord b = SeedVerdictsTest.runs("Sales", "MS_XPRESS", "LOCAL", false, GB, 0.4, 1000).get(0);
        Instant s = b.startedAt();
        assertThat(CpuEstimate.millis(b.withCpu(new BackupCpu(100_000L, null, 1, s.plusSeconds(100), s.plusSeconds(400), null, null,
                null, null)))).as("seen for 40 % of the run").isNull();
        assertThat(CpuEstimate.millis(b.withCpu(new BackupCpu(100_000L, null, 2, s.plusSeconds(100), s.plusSeconds(800), 300_000L, 3,
                false, "overlapped")))).as("process unreliable: the request's, scaled by 800 s of 1000").isEqualTo(125_000L);
        assertThat(CpuEstimate.millis(b.withCpu(new BackupCpu(100_000L, null, 2, s.plusSeconds(200), s.plusSeconds(800), 300_000L, 3,
                true, null)))).as("process reliable: 800 s of 1000 covered").isEqualTo(375_000L);
    }
}
