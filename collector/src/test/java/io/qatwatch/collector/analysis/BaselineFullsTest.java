package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The compact fulls of the throughput baseline: which it keeps, in which order, and when its memo is forgotten. */
class BaselineFullsTest {

    private static final Instant T0 = Instant.parse("2026-10-04T01:00:00Z");

    @Test
    void givesBackExactlyWhatItTookInIntsAndInLongsOnceANumberDoesNotFit() {
        // odd milliseconds and sizes, a full that finished before the first one taken; then one of 5 TiB (its size in
        // KiB needs more than 32 bits) and one with a backup_set_id past an int: the fulls turn to longs, losing nothing
        List<BackupRecord> fulls = new ArrayList<>();
        fulls.add(full(7, T0.plusMillis(86_400_123), 3_600_789, 123_456_789_123L));
        fulls.add(full(3, T0.plusMillis(1), 900_001, 3L * (1L << 30) + 7));
        fulls.add(full(9, T0.plusMillis(2L * 86_400_000 + 999), 7_200_000, (4L << 40) - 1));
        List<BackupRecord> wide = new ArrayList<>(fulls);
        wide.add(full(11, T0.plusMillis(3L * 86_400_000), 8_000_000, 5L << 40));
        wide.add(full(5_000_000_000L, T0.plusMillis(4L * 86_400_000 + 17), 1_000_333, 1L << 30));
        for (List<BackupRecord> taken : List.of(fulls, wide)) {
            BaselineFulls f = new BaselineFulls("sql1/MSSQLSERVER");
            taken.forEach(b -> f.add(b, 15, 300, UnaryOperator.identity()));
            List<String> expected = taken.stream().sorted(BackupDigest.ORDER).map(BaselineFullsTest::kept).toList();
            assertThat(kept(f)).containsExactlyElementsOf(expected);

            // a summary's fulls read back (sized at once, turned to longs where a number does not fit), then one more
            SummaryOutput out = new SummaryOutput(T0);
            f.write(out);
            BaselineFulls back = BaselineFulls.read(new SummaryInput(out.toByteArray(), UnaryOperator.identity()),
                    "sql1/MSSQLSERVER");
            assertThat(kept(back)).as("read back from a summary").containsExactlyElementsOf(expected);
            BackupRecord next = full(13, T0.plusMillis(5L * 86_400_000), 1_200_000, 2L << 30);
            back.add(next, 15, 300, UnaryOperator.identity());
            List<String> more = new ArrayList<>(expected);
            more.add(kept(next));
            assertThat(kept(back)).as("and a full taken after").containsExactlyElementsOf(more);

            f.add(taken.get(0), 15, 300, UnaryOperator.identity());
            assertThat(f.size()).as("a full already kept is not taken twice").isEqualTo(taken.size());
        }
    }

    private static List<String> kept(BaselineFulls f) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < f.size(); i++) {
            kept.add(f.finishMillis(i) + " " + f.sizeBytes(i) + " " + f.durationSeconds(i) + " " + f.path(i));
        }
        return kept;
    }

    private static String kept(BackupRecord b) {
        return b.finishedAt().toEpochMilli() + " " + b.backupSizeBytes() + " "
                + Duration.between(b.startedAt(), b.finishedAt()).toSeconds() + " MS_XPRESS|UNC";
    }

    private static BackupRecord full(long setId, Instant start, long millis, long bytes) {
        return new BackupRecord(setId, "Sales", "guid-sales", "D", false, start, start.plusMillis(millis), true, bytes, bytes / 3,
                "MS_XPRESS", true, BackupRecord.NO_ENCRYPTION, null, null, "DISK", "UNC");
    }

    @Test
    void keepsTheNewestOfEachPathInStoreOrderAndForgetsItsMemoWhenTheyChange() {
        BaselineFulls f = new BaselineFulls("sql1/MSSQLSERVER");
        List<BackupRecord> weekly = new ArrayList<>();
        for (int week = 0; week < 20; week++) {
            weekly.add(backup("Sales", "D", T0.plus(Duration.ofDays(7L * week)), 3600 + week, 100L << 30, "MS_XPRESS", "UNC"));
        }
        // stored out of order, and one twice
        for (int n = weekly.size() - 1; n >= 0; n--) {
            f.add(weekly.get(n), 15, 300, UnaryOperator.identity());
        }
        f.add(weekly.get(19), 15, 300, UnaryOperator.identity());
        // a short full and a log never count; another path keeps its own newest
        f.add(backup("Sales", "D", T0.plusSeconds(60), 200, 1L << 30, "MS_XPRESS", "UNC"), 15, 300, UnaryOperator.identity());
        f.add(backup("Sales", "L", T0.plusSeconds(120), 900, 1L << 30, "MS_XPRESS", "UNC"), 15, 300, UnaryOperator.identity());
        f.add(backup("Sales", "D", T0.plusSeconds(3 * 86_400), 4000, 100L << 30, null, "URL"), 15, 300, UnaryOperator.identity());

        List<String> kept = new ArrayList<>();
        for (int i = 0; i < f.size(); i++) {
            kept.add(f.finishedAt(i) + " " + f.durationSeconds(i) + " " + f.path(i));
        }
        // store order, by start: the URL full started in the first week, before the 15 newest weekly ones
        List<String> expected = new ArrayList<>();
        expected.add(T0.plusSeconds(3 * 86_400 + 4000) + " 4000 uncompressed|URL");
        for (int week = 5; week < 20; week++) {
            BackupRecord b = weekly.get(week);
            expected.add(b.finishedAt() + " " + (3600 + week) + " MS_XPRESS|UNC");
        }
        assertThat(kept).containsExactlyElementsOf(expected);
        assertThat(f.throughputMbps(f.size() - 1)).isEqualTo((100L << 30) / 1_048_576.0 / 3619);

        Object first = f.memo("k", Object::new);
        assertThat(f.memo("k", Object::new)).as("kept while nothing changed").isSameAs(first);
        assertThat(f.memo("other", Object::new)).as("another key").isNotSameAs(first);
        Object second = f.memo("k", Object::new);
        f.dropUpTo(weekly.get(5).finishedAt());
        assertThat(f.size()).as("the oldest weekly full and the URL full left the lookback period").isEqualTo(14);
        assertThat(f.memo("k", Object::new)).as("forgotten when a full left").isNotSameAs(second);
        Object third = f.memo("k", Object::new);
        f.dropUpTo(T0);
        assertThat(f.memo("k", Object::new)).as("nothing left: kept").isSameAs(third);
    }
}
