package io.qatwatch.collector.compression;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.compression.CompressionSamples.Key;
import io.qatwatch.collector.compression.CompressionSamples.Point;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lookback period's start moves a minute each evaluation and passes a kept backup's start about once a night: the
 * samples look at their series only then, and still drop each backup in the very minute the start passes it.
 */
class LookbackDropTest {

    private static final Instant NIGHT = Instant.parse("2026-10-01T22:00:00.123Z");
    private static final long GB = 1_000_000_000L;
    private static final QatModes MODES = QatModes.constant("HARDWARE");

    private static BackupRecord backup(long id, String database, String algorithm, Instant start, long seconds) {
        return new BackupRecord(id, database, "guid-" + database, "D", false, start, start.plusSeconds(seconds), true,
                100 * GB, 40 * GB, algorithm, true, BackupRecord.NO_ENCRYPTION, null, null, "DISK", "LOCAL");
    }

    private static Instant night(int n) {
        return NIGHT.plus(Duration.ofDays(n));
    }

    private static List<Comparison> compare(CompressionSamples s, Instant from) {
        return s.comparisons(from, Map.of(), VerdictThresholds.DEFAULTS);
    }

    /** What a fresh evaluation of {@code backups} gives as of {@code from}. */
    private static List<Comparison> fresh(List<BackupRecord> backups, Instant from) {
        return compare(CompressionSamples.of(backups, MODES, 60), from);
    }

    @Test
    void aBackupLeavesInTheMinuteTheLookbackStartPassesItsStartAndQuietMinutesLookAtNoSeries() {
        // Dw's backups start at 22:00 of nights 2 to 8, Sales's an hour later on nights 5 to 8
        List<BackupRecord> b = new ArrayList<>();
        for (int n = 2; n <= 8; n++) {
            b.add(backup(n, "Dw", "MS_XPRESS", night(n), 1000 + n));
        }
        for (int n = 5; n <= 8; n++) {
            b.add(backup(100 + n, "Sales", "ZSTD", night(n).plusSeconds(3600), 700 + n));
        }
        CompressionSamples s = CompressionSamples.of(b, MODES, 60);
        long walked = CompressionSamples.WALKED.sum();
        List<Comparison> quiet = compare(s, night(2));
        assertThat(s.size()).as("a backup that started at the lookback start is within it").isEqualTo(11);
        assertThat(CompressionSamples.WALKED.sum() - walked).as("series looked at while nothing left").isZero();

        List<Comparison> passed = compare(s, night(2).plusMillis(1));
        assertThat(s.size()).as("the lookback start passed night 2's start").isEqualTo(10);
        assertThat(passed).isNotSameAs(quiet).isEqualTo(fresh(b.subList(1, b.size()), night(2)));
        assertThat(CompressionSamples.WALKED.sum() - walked).isEqualTo(1);

        for (Instant minute = night(2).plusSeconds(60); minute.isBefore(night(3)); minute = minute.plus(Duration.ofHours(1))) {
            assertThat(compare(s, minute)).isSameAs(passed);
        }
        assertThat(compare(s, night(3))).isSameAs(passed);
        assertThat(CompressionSamples.WALKED.sum() - walked).as("a night of quiet minutes").isEqualTo(1);

        // once Dw's night 5 is gone, Sales's night 5 (a series that lost nothing yet) is the oldest kept
        compare(s, night(3).plusMillis(1));
        compare(s, night(4).plusMillis(1));
        compare(s, night(5).plusMillis(1));
        assertThat(s.size()).isEqualTo(7);
        Instant salesFifth = night(5).plusSeconds(3600);
        compare(s, salesFifth);
        assertThat(s.size()).isEqualTo(7);
        assertThat(compare(s, salesFifth.plusMillis(1)))
                .isEqualTo(fresh(b.stream().filter(r -> r.startedAt().isAfter(salesFifth)).toList(), salesFifth));
        assertThat(s.size()).isEqualTo(6);
    }

    @Test
    void aLateBackupOlderThanEveryKeptOneLeavesWhenTheLookbackStartPassesIt() {
        CompressionSamples s = new CompressionSamples(60);
        for (int n = 10; n <= 14; n++) {
            s.add(backup(n, "Dw", "MS_XPRESS", night(n), 1000), MODES);
        }
        compare(s, night(1));
        // an agent that was away sends night 3's backup after the store had the later ones
        assertThat(s.add(backup(3, "Stock", "ZSTD", night(3), 900), MODES)).isTrue();
        compare(s, night(3));
        assertThat(s.size()).isEqualTo(6);
        compare(s, night(3).plusMillis(1));
        assertThat(s.size()).isEqualTo(5);
        assertThat(s.series().keySet()).extracting(Key::database).containsOnly("Dw");
    }

    @Test
    void samplesReadBackFromASummaryDropTheirOldestWhenTheLookbackStartPassesIt() {
        List<BackupRecord> b = new ArrayList<>();
        for (int n = 4; n <= 9; n++) {
            b.add(backup(n, "Dw", "MS_XPRESS", night(n), 1000 + n));
            b.add(backup(100 + n, "Sales", "ZSTD", night(n).plusSeconds(3600), 700 + n));
        }
        CompressionSamples read = throughASummary(CompressionSamples.of(b, MODES, 60));
        compare(read, night(4));
        assertThat(read.size()).isEqualTo(12);
        assertThat(compare(read, night(4).plusMillis(1))).isEqualTo(fresh(b.subList(1, b.size()), night(4)));
        assertThat(read.size()).isEqualTo(11);
    }

    @Test
    void droppingGivesExactlyTheBackupsThatStartedAtOrAfterTheLookbackStartWhateverCameBefore() {
        // late, repeated and out-of-order backups, series that let their oldest go for newer ones (more than 32), summaries
        // read back, and a lookback start that mostly moves a minute, sometimes a night, and now and then back
        Random random = new Random(19);
        String[][] series = {{"Dw", "MS_XPRESS"}, {"Dw", "ZSTD"}, {"Sales", "MS_XPRESS"}, {"Stock", "QAT_DEFLATE"}};
        CompressionSamples s = new CompressionSamples(60);
        Instant from = night(0);
        int drops = 0;
        for (int step = 0; step < 4000; step++) {
            int what = random.nextInt(100);
            if (what < 45) {
                String[] k = series[random.nextInt(series.length)];
                Instant start = from.plus(Duration.ofMinutes(random.nextInt(60 * 24 * 40) - 60 * 24 * 3));
                s.add(backup(step, k[0], k[1], start, 600 + random.nextInt(3)), MODES);
            } else if (what < 95) {
                Instant to = what < 75 ? from.plusSeconds(60) : what < 92 ? from.plus(Duration.ofHours(random.nextInt(30)))
                        : from.minus(Duration.ofHours(random.nextInt(30)));
                Map<Key, List<Point>> before = s.series();
                if (random.nextBoolean()) {
                    s.dropBefore(to);
                } else {
                    compare(s, to);
                }
                Map<Key, List<Point>> after = s.series();
                assertThat(after).as("step %d, from %s", step, to).isEqualTo(startedFrom(before, to));
                drops += before.equals(after) ? 0 : 1;
                from = to;
            } else {
                s = throughASummary(s);
            }
        }
        assertThat(drops).as("lookback starts that dropped a backup").isGreaterThan(100);
    }

    /** {@code series} without the backups that started before {@code from}, and without the series left empty. */
    private static Map<Key, List<Point>> startedFrom(Map<Key, List<Point>> series, Instant from) {
        Map<Key, List<Point>> out = new LinkedHashMap<>();
        series.forEach((k, points) -> {
            List<Point> kept = points.stream().filter(p -> !p.startedAt().isBefore(from)).toList();
            if (!kept.isEmpty()) {
                out.put(k, kept);
            }
        });
        return out;
    }

    private static CompressionSamples throughASummary(CompressionSamples s) {
        SummaryOutput out = new SummaryOutput(NIGHT);
        s.write(out);
        SummaryInput in = new SummaryInput(out.toByteArray(), x -> x);
        CompressionSamples read = CompressionSamples.read(in, 60);
        in.end();
        return read;
    }
}
