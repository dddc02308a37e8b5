package io.qatwatch.collector.compression;

import static io.qatwatch.collector.compression.SeedVerdictsTest.runs;
import static io.qatwatch.collector.compression.CompressionSamples.KEPT_PER_SERIES;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.compression.CompressionSamples.Point;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The samples kept per instance and the like-with-like grouping and judging of them. */
class ComparisonsTest {

    private static final long GB = 1_000_000_000L;
    private static final Instant LONG_AGO = Instant.parse("2026-01-01T00:00:00Z");

    private static List<Comparison> compare(List<BackupRecord> backups, QatModes modes) {
        return CompressionSamples.of(backups, modes, 60).comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS);
    }

    @Test
    void fasterAndSmallerWhenBothGainsCount() {
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990));
        b.addAll(runs("Dw", "ZSTD", "LOCAL", false, 100 * GB, 0.35, 700, 705, 695));
        Comparison c = compare(b, QatModes.constant(null)).get(0);
        assertThat(c.verdict()).isEqualTo(Verdict.FASTER_AND_SMALLER);
        assertThat(c.alternative().label()).isEqualTo("ZSTD");
    }

    @Test
    void aSpeedGainThatCostsMoreThanTenPercentInSizeIsNoGain() {
        // ZSTD LOW: 40 % faster, compressed 20 % larger
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990));
        b.addAll(runs("Dw", "ZSTD", "LOCAL", false, 100 * GB, 0.60, 714, 716, 712));
        Comparison c = compare(b, QatModes.constant(null)).get(0);
        assertThat(c.speedGainPercent()).isGreaterThan(25);
        assertThat(c.sizeGainPercent()).isLessThan(-10);
        assertThat(c.verdict()).isEqualTo(Verdict.NO_GAIN);
    }

    @Test
    void aGainInsideTheSpreadOfEitherSideIsNoGain() {
        // medians 30 % apart, but the share's MS_XPRESS nights range from 700 s to 2000 s
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "UNC", false, 100 * GB, 0.50, 700, 760, 1300, 1900, 2000));
        b.addAll(runs("Dw", "QAT_DEFLATE", "UNC", false, 100 * GB, 0.50, 990, 1000, 1010));
        Comparison c = compare(b, QatModes.constant("HARDWARE")).get(0);
        assertThat(c.speedGainPercent()).isGreaterThan(25);
        assertThat(c.verdict()).isEqualTo(Verdict.NO_GAIN);
    }

    @Test
    void oneMethodIsSingleAlgorithmAndEachTargetIsItsOwnRow() {
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990));
        b.addAll(runs("Dw", "QAT_DEFLATE", "URL", false, 100 * GB, 0.50, 500, 505, 495));
        List<Comparison> rows = compare(b, QatModes.constant("SOFTWARE"));
        assertThat(rows).extracting(Comparison::target, Comparison::verdict)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("LOCAL", Verdict.SINGLE_ALGORITHM),
                        org.assertj.core.groups.Tuple.tuple("URL", Verdict.SINGLE_ALGORITHM));
        assertThat(rows.get(1).baseline().label()).as("the only method is its own baseline").isEqualTo("QAT_DEFLATE (SOFTWARE)");
    }

    @Test
    void rowsSortByNameWhateverItsCaseAndFindTheirTdeStateByTheLowerCaseName() {
        List<BackupRecord> b = new ArrayList<>();
        for (String db : List.of("sales", "Archive", "SALES", "Sales", "crm")) {
            b.addAll(runs(db, "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990));
        }
        List<Comparison> rows = CompressionSamples.of(b, QatModes.constant(null), 60)
                .comparisons(LONG_AGO, Map.of("archive", true, "sales", false), VerdictThresholds.DEFAULTS);
        assertThat(rows).extracting(Comparison::database).as("by lower-case name, then as spelled")
                .containsExactly("Archive", "crm", "SALES", "Sales", "sales");
        assertThat(rows).extracting(Comparison::tde).containsExactly(true, null, false, false, false);
    }

    @Test
    void eachQatBackupIsJudgedInTheModeItRanIn() {
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "QAT_DEFLATE", "LOCAL", false, 100 * GB, 0.40, 500, 505, 495, 700, 710, 690));
        // nights 1-3 (newest) ran after the driver failed and SQL Server fell back to software
        Instant fellBack = b.get(2).startedAt().minusSeconds(60);
        QatModes modes = QatModes.of(List.of(new QatModes.Change(LONG_AGO, "HARDWARE"), new QatModes.Change(fellBack, "SOFTWARE")),
                "SOFTWARE");
        Comparison c = compare(b, modes).get(0);
        assertThat(c.algorithms()).extracting(e -> e.stats().method().label(), e -> e.stats().backups())
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("QAT_DEFLATE (HARDWARE)", 3),
                        org.assertj.core.groups.Tuple.tuple("QAT_DEFLATE (SOFTWARE)", 3));
        assertThat(c.current().mode()).isEqualTo("SOFTWARE");
    }

    @Test
    void copyOnlyFullsCountWithFullsLogsShortAndSnapshotBackupsNotAndEncryptedBackupsApart() {
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990));
        b.addAll(runs("Dw", "QAT_DEFLATE", "LOCAL", true, 100 * GB, 0.50, 500, 505, 495));
        BackupRecord log = b.get(0);
        b.add(new BackupRecord(9_000, "Dw", null, "L", false, log.startedAt(), log.finishedAt(), true, GB, GB / 2, "QAT_DEFLATE",
                true, null, null, null, "DISK", "LOCAL"));
        b.add(new BackupRecord(9_001, "Dw", null, "D", false, log.startedAt(), log.startedAt().plusSeconds(59), true, GB, GB / 2,
                "ZSTD", true, null, null, null, "DISK", "LOCAL"));
        b.add(new BackupRecord(9_002, "Dw", null, "D", false, log.startedAt(), log.startedAt().plusSeconds(900), true, 100 * GB,
                50 * GB, "MS_XPRESS", true, "AES_256", "0x01", "CERTIFICATE", "DISK", "LOCAL"));
        // a VSS snapshot backup: its size is an estimate and its duration the freeze
        b.add(new BackupRecord(9_003, "Dw", null, "D", false, log.startedAt(), log.startedAt().plusSeconds(120), true, 100 * GB,
                100 * GB, null, true, "NO_Encryption", null, null, "VIRTUAL_DEVICE", "LOCAL", null, true));
        List<Comparison> rows = compare(b, QatModes.constant("HARDWARE"));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).stats(rows.get(0).baseline()).orElseThrow().backups()).as("no snapshot, no log, no 59 s backup")
                .isEqualTo(3);
        assertThat(rows.get(0).verdict()).as("the copy-only QAT tests against the jobs' fulls").isEqualTo(Verdict.FASTER);
        assertThat(rows.get(0).algorithms()).hasSize(2);
        assertThat(rows.get(1).backupEncrypted()).isTrue();
        assertThat(rows.get(1).verdict()).isEqualTo(Verdict.SINGLE_ALGORITHM);
    }

    @Test
    void aSeriesKeepsItsNewestBackupsOnceAndDropsWhatLeftTheLookback() {
        long[] seconds = new long[40];
        java.util.Arrays.fill(seconds, 600);
        List<BackupRecord> b = runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.5, seconds);
        CompressionSamples s = new CompressionSamples(60);
        // newest first, then again: late, repeated and out-of-order backups end the same
        for (BackupRecord r : b) {
            s.add(r, QatModes.constant(null));
        }
        List<BackupRecord> oldestFirst = new ArrayList<>(b);
        java.util.Collections.reverse(oldestFirst);
        for (BackupRecord r : oldestFirst) {
            assertThat(s.add(r, QatModes.constant(null))).isFalse();
        }
        List<Point> kept = s.series().values().iterator().next();
        assertThat(kept).hasSize(CompressionSamples.KEPT_PER_SERIES);
        assertThat(kept.get(kept.size() - 1).finishedAt()).isEqualTo(b.get(0).finishedAt());
        assertThat(kept.get(0).finishedAt()).as("the 32nd newest").isEqualTo(b.get(31).finishedAt());
        assertThat(kept).isSortedAccordingTo(java.util.Comparator.comparing(Point::finishedAt));

        s.dropBefore(b.get(9).startedAt());
        assertThat(s.size()).as("a backup counts while it started within the lookback period").isEqualTo(10);
        s.dropBefore(b.get(0).startedAt().plusMillis(1));
        assertThat(s.series()).isEmpty();
    }

    @Test
    void aSeriesGivesBackExactlyTheNumbersItTookOpenPackedAndOpenedAgain() {
        // odd sizes and starts (not whole KiB, not whole seconds), an older backup after newer ones, a full of 5 TiB,
        // one of 30 days and compressed sizes no ratio predicts: packed once an evaluation read them, opened again by a later backup, nothing lost
        Instant t = Instant.parse("2026-10-01T22:00:00.123Z");
        List<BackupRecord> b = new ArrayList<>();
        b.add(record(1, t.plusSeconds(86_400), 3_601_007, 123_456_789_123L, 41_152_263_041L));
        b.add(record(2, t, 7_000_001, 3 * GB + 7, GB + 1));
        b.add(record(3, t.plusSeconds(2 * 86_400).plusMillis(999), 600_000, (4L << 40) - 1, 1023));
        b.add(record(4, t.plusSeconds(3 * 86_400), 7_200_000, 5L << 40, 2L << 40));
        b.add(record(5, t.minusSeconds(40L * 86_400), 30L * 86_400_000, 200 * GB, 70 * GB));
        // compressed sizes a ratio does not predict: nothing, all but a byte, negative beyond any ratio, then sensible
        b.add(record(7, t.plusSeconds(4 * 86_400), 600_000, 2 * GB, 0));
        b.add(record(8, t.plusSeconds(5 * 86_400), 600_000, 3 * GB + 1, 3 * GB));
        b.add(record(9, t.plusSeconds(6 * 86_400), 30L * 86_400_000, 70_000_000_000_000_000L, 70_000_000_000_000_000L - 1));
        b.add(record(10, t.plusSeconds(7 * 86_400), 600_000, 1, Long.MIN_VALUE + 1));
        b.add(record(11, t.plusSeconds(8 * 86_400), 600_000, 5 * GB, 2 * GB));
        BackupRecord late = record(6, t.plusSeconds(86_400).plusMillis(1), 61_001, (1L << 40) + 3, 7);
        CompressionSamples s = new CompressionSamples(60);
        b.forEach(r -> assertThat(s.add(r, QatModes.constant(null))).isTrue());
        List<String> expected = numbers(b);
        assertThat(numbers(s)).as("open").containsExactlyElementsOf(expected);
        List<Comparison> read = s.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS);
        assertThat(numbers(s)).as("packed").containsExactlyElementsOf(expected);
        assertThat(s.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS)).as("unchanged: the same comparisons")
                .isSameAs(read);
        assertThat(s.add(b.get(2), QatModes.constant(null))).as("a packed series still knows what it holds").isFalse();
        assertThat(s.add(late, QatModes.constant(null))).isTrue();
        List<BackupRecord> all = new ArrayList<>(b);
        all.add(late);
        s.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS);
        assertThat(numbers(s)).as("opened, changed and packed again").containsExactlyElementsOf(numbers(all));
    }

    @Test
    void aSeriesReadBackFromASummaryHoldsTheSameNumbersAndComparisonsAndTakesMore() {
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50,
                1000, 1010, 990, 1020, 980, 1005, 995, 1001, 999, 1003, 997, 1002, 998, 1004, 996, 1006, 994, 1007, 993, 1008,
                992, 1009, 991, 1011, 989, 1012, 988, 1013, 987, 1014, 986, 1015, 985));
        b.addAll(runs("Dw", "ZSTD", "LOCAL", false, 100 * GB, 0.35, 700));
        CompressionSamples s = CompressionSamples.of(b, QatModes.constant(null), 60);
        assertThat(s.size()).as("a full series and one of one backup").isEqualTo(KEPT_PER_SERIES + 1);
        List<Comparison> before = s.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS);
        CompressionSamples read = throughASummary(s);
        assertThat(read.series()).isEqualTo(s.series());
        assertThat(read.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS)).isEqualTo(before);
        BackupRecord next = runs("Dw", "ZSTD", "LOCAL", false, 100 * GB, 0.35, 700, 701).get(1);
        assertThat(read.add(next, QatModes.constant(null))).isTrue();
        assertThat(read.size()).isEqualTo(KEPT_PER_SERIES + 2);
        // a series open for a change (the backup just added) is written packed too, and stays open
        CompressionSamples readAgain = throughASummary(read);
        assertThat(readAgain.series()).isEqualTo(read.series());
        assertThat(readAgain.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS))
                .isEqualTo(read.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS));
    }

    @Test
    void aSeriesReadBackFromASummaryIsComparedFromTheStatisticsItHoldsWithoutBeingUnpacked() {
        // CPU observed, a series only of COPY_ONLY backups, one whose newest backup is COPY_ONLY, two databases
        List<BackupRecord> b = new ArrayList<>();
        for (BackupRecord r : runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990, 1200)) {
            b.add(r.withCpu(new BackupCpu(100_000L, 100_000L, 5, r.startedAt(), r.finishedAt(), 400_000L, 6, true, null)));
        }
        b.addAll(runs("Dw", "QAT_DEFLATE", "LOCAL", true, 100 * GB, 0.40, 400, 410));
        b.addAll(runs("Sales", "ZSTD", "URL", false, 70 * GB, 0.35, 700, 650, 720));
        b.addAll(runs("Sales", "ZSTD", "URL", true, 70 * GB, 0.35, 690));
        b.addAll(runs("Sales", "MS_XPRESS", "URL", false, 70 * GB, 0.50, 600, 650));
        QatModes modes = QatModes.constant("HARDWARE");
        Map<String, Boolean> tde = Map.of("dw", true);
        CompressionSamples s = CompressionSamples.of(b, modes, 60);
        s.comparisons(LONG_AGO, tde, VerdictThresholds.DEFAULTS);
        CompressionSamples read = throughASummary(s);
        List<Comparison> fresh = CompressionSamples.of(b, modes, 60).comparisons(LONG_AGO, tde, VerdictThresholds.DEFAULTS);
        assertThat(fresh).extracting(Comparison::current).as("the jobs' methods, not the newer COPY_ONLY backups'")
                .extracting(Method::algorithm).containsExactly("MS_XPRESS", "ZSTD");
        assertThat(fresh.get(1).currentAt()).isEqualTo(b.get(b.size() - 6).finishedAt());
        assertThat(fresh.get(0).algorithms()).anySatisfy(e -> assertThat(e.stats().cpuBackups()).isEqualTo(4));

        long unpacked = CompressionSamples.UNPACKED.sum();
        assertThat(read.comparisons(LONG_AGO, tde, VerdictThresholds.DEFAULTS)).as("as a fresh computation").isEqualTo(fresh);
        assertThat(read.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS)).as("TDE states changed")
                .isEqualTo(CompressionSamples.of(b, modes, 60).comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS));
        assertThat(CompressionSamples.UNPACKED.sum() - unpacked).as("series unpacked").isZero();

        BackupRecord next = runs("Sales", "ZSTD", "URL", false, 70 * GB, 0.35, 700, 701).get(1);
        assertThat(read.add(next, modes)).isTrue();
        List<BackupRecord> all = new ArrayList<>(b);
        all.add(next);
        assertThat(read.comparisons(LONG_AGO, tde, VerdictThresholds.DEFAULTS))
                .isEqualTo(CompressionSamples.of(all, modes, 60).comparisons(LONG_AGO, tde, VerdictThresholds.DEFAULTS));
        assertThat(CompressionSamples.UNPACKED.sum() - unpacked).as("only the series a backup went into").isEqualTo(1);
    }

    /** {@code s} written into a summary body and read back from it, every byte of the body read. */
    private static CompressionSamples throughASummary(CompressionSamples s) {
        io.qatwatch.collector.store.SummaryOutput out = new io.qatwatch.collector.store.SummaryOutput(LONG_AGO);
        s.write(out);
        io.qatwatch.collector.store.SummaryInput in = new io.qatwatch.collector.store.SummaryInput(out.toByteArray(), x -> x);
        CompressionSamples read = CompressionSamples.read(in, 60);
        in.end();
        return read;
    }

    @Test
    void aRowsStatisticsAndCurrentMethodAreThoseOfItsBackupsAsPoints() {
        List<BackupRecord> b = new ArrayList<>(runs("Dw", "MS_XPRESS", "LOCAL", false, 100 * GB, 0.50, 1000, 1010, 990, 1200));
        b.addAll(runs("Dw", "ZSTD", "LOCAL", false, 70 * GB, 0.35, 700, 650, 720));
        b.addAll(runs("Dw", "QAT_DEFLATE", "LOCAL", true, 100 * GB, 0.40, 400));
        CompressionSamples s = CompressionSamples.of(b, QatModes.constant("HARDWARE"), 60);
        Map<CompressionSamples.Key, List<Point>> series = s.series();
        Comparison c = s.comparisons(LONG_AGO, Map.of(), VerdictThresholds.DEFAULTS).get(0);
        assertThat(c.algorithms()).hasSize(3);
        for (Comparison.Entry e : c.algorithms()) {
            AlgorithmStats st = e.stats();
            List<Point> points = series.entrySet().stream().filter(x -> x.getKey().method().equals(st.method()))
                    .findFirst().orElseThrow().getValue();
            assertThat(st.backups()).isEqualTo(points.size());
            assertThat(st.copyOnlyBackups()).isEqualTo((int) points.stream().filter(Point::copyOnly).count());
            assertThat(st.latest()).isEqualTo(points.stream().map(Point::finishedAt).max(Instant::compareTo).orElseThrow());
            assertThat(st.seconds()).isEqualTo(AlgorithmStats.Quartiles.of(points.stream().mapToDouble(Point::seconds).toArray()));
            assertThat(st.mbps()).isEqualTo(AlgorithmStats.Quartiles.of(points.stream().mapToDouble(Point::mbps).toArray()));
            assertThat(st.ratio()).isEqualTo(AlgorithmStats.Quartiles.of(points.stream().mapToDouble(Point::ratio).toArray()));
        }
        // the QAT backup is the newest but copy-only: the jobs' method is that of the newest of the others
        Map.Entry<CompressionSamples.Key, Point> newestJob = series.entrySet().stream()
                .flatMap(x -> x.getValue().stream().filter(p -> !p.copyOnly()).map(p -> Map.entry(x.getKey(), p)))
                .max(java.util.Comparator.comparing(x -> x.getValue().finishedAt())).orElseThrow();
        assertThat(series.keySet().stream().filter(k -> k.method().algorithm().equals("QAT_DEFLATE")).findFirst()
                .map(series::get).orElseThrow().get(0).finishedAt()).isAfter(newestJob.getValue().finishedAt());
        assertThat(c.current()).isEqualTo(newestJob.getKey().method());
        assertThat(c.currentAt()).isEqualTo(newestJob.getValue().finishedAt())
                .as("the row's and its method's newest finish").isEqualTo(c.stats(c.current()).orElseThrow().latest());
    }

    private static List<String> numbers(List<BackupRecord> backups) {
        return backups.stream().sorted(java.util.Comparator.comparing(BackupRecord::startedAt))
                .map(r -> r.startedAt() + " " + java.time.Duration.between(r.startedAt(), r.finishedAt()).toMillis() + " "
                        + r.backupSizeBytes() + " " + r.compressedSizeBytes()).toList();
    }

    private static List<String> numbers(CompressionSamples s) {
        return s.series().values().iterator().next().stream()
                .map(p -> p.startedAt() + " " + p.millis() + " " + p.bytes() + " " + p.compressedBytes()).toList();
    }

    private static BackupRecord record(long id, Instant start, long millis, long bytes, long compressed) {
        return new BackupRecord(id, "Dw", "guid-dw", "D", false, start, start.plusMillis(millis), true, bytes, compressed,
                "MS_XPRESS", true, BackupRecord.NO_ENCRYPTION, null, null, "DISK", "LOCAL");
    }

    @Test
    void aBackupFasterThanAnyHostCanWriteIsNotAMeasurementAndDoesNotCount() {
        // the demo's Warehouse: 2,400 TiB (a unit too many) in 5 h 05 min came out at 137,518.2 MB/s (issue 29 item 10)
        long tib = 1L << 40;
        List<BackupRecord> wrongUnit = runs("Warehouse", "QAT_DEFLATE", "LOCAL", false, 2_400L * tib, 0.37, 18_300);
        List<BackupRecord> real = runs("Warehouse", "QAT_DEFLATE", "LOCAL", false, 2_400L * (1L << 30), 0.37, 18_300);
        CompressionSamples s = new CompressionSamples(60);
        assertThat(s.add(wrongUnit.get(0), QatModes.constant("SOFTWARE"))).isFalse();
        assertThat(s.add(real.get(0), QatModes.constant("SOFTWARE"))).isTrue();
        assertThat(s.series().values().iterator().next()).singleElement()
                .satisfies(p -> assertThat(p.mbps()).isCloseTo(134.3, org.assertj.core.data.Offset.offset(0.1))
                        .isLessThan(CompressionSamples.MAX_PLAUSIBLE_MBPS));
    }

    @Test
    void gainsReadWithTheApisSignsPositiveIsFasterAndSmaller() {
        assertThat(Judgement.words(109.2, -5.4)).isEqualTo("speed gain +109.2 % (faster), size gain -5.4 % (larger)");
        assertThat(Judgement.words(-12.0, 24.6)).isEqualTo("speed gain -12.0 % (slower), size gain +24.6 % (smaller)");
        assertThat(Judgement.words(-0.04, 0.04)).as("no -0.0 against +0.0").isEqualTo("speed gain 0.0 %, size gain 0.0 %");
    }
}
