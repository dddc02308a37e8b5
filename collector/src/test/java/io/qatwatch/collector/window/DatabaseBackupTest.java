package io.qatwatch.collector.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DatabaseBackup} holds its times and sizes as numbers but must give, compare, hash and print what the record it
 * replaced did: {@code Record} below is that record, part for part, and every backup here is checked against it.
 */
class DatabaseBackupTest {

    /** The record {@link DatabaseBackup} was until session 15, as it was declared. */
    private record Record(String instance, String database, String databaseKey, String type, boolean copyOnly,
                          Instant startedAt, Instant finishedAt, long sizeBytes, Long compressedSizeBytes,
                          String compressionAlgorithm, String target, boolean onSecondary, boolean snapshot) {
    }

    private static final Instant START = Instant.parse("2026-03-02T01:00:00.123456789Z");
    private static final Instant FINISH = Instant.parse("2026-03-02T01:42:17.5Z");

    private static Record full() {
        return new Record("sql1/MSSQLSERVER", "Sales", "guid-1", "D", true, START, FINISH, 7_000_000_000L, 2_500_000_000L,
                "QAT_DEFLATE", "DISK", true, false);
    }

    private static DatabaseBackup of(Record r) {
        return new DatabaseBackup(r.instance(), r.database(), r.databaseKey(), r.type(), r.copyOnly(), r.startedAt(),
                r.finishedAt(), r.sizeBytes(), r.compressedSizeBytes(), r.compressionAlgorithm(), r.target(),
                r.onSecondary(), r.snapshot());
    }

    /** Records that differ from {@link #full()} in one part each (and in several), nulls where the record took them. */
    private static List<Record> variants() {
        Record f = full();
        List<Record> out = new ArrayList<>();
        out.add(f);
        out.add(new Record(null, null, null, null, false, null, null, 0, null, null, null, false, false));
        out.add(new Record("sql2/MSSQLSERVER", f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH,
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), "Sales2", null, "L", false, START, FINISH, f.sizeBytes(), null, null, "URL",
                false, true));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START.plusNanos(1), FINISH,
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH.plusSeconds(1),
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH,
                f.sizeBytes() + 1, f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        // a compressed size of 0 is not the same as none
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH,
                f.sizeBytes(), 0L, f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH,
                f.sizeBytes(), null, f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), false, START, FINISH,
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH,
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), false, f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, FINISH,
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), true));
        // before the epoch, negative sizes: whatever the record held
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(),
                Instant.parse("1960-01-01T00:00:00.999Z"), Instant.parse("1960-01-01T00:00:01.001Z"), -5, Long.MIN_VALUE,
                f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), Instant.MIN, Instant.MAX,
                Long.MAX_VALUE, Long.MAX_VALUE, f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        out.add(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), START, null,
                f.sizeBytes(), f.compressedSizeBytes(), f.compressionAlgorithm(), f.target(), f.onSecondary(), f.snapshot()));
        return out;
    }

    @Test
    void everyPartComesBackAsTheRecordHeldIt() {
        for (Record r : variants()) {
            DatabaseBackup b = of(r);
            Record back = new Record(b.instance(), b.database(), b.databaseKey(), b.type(), b.copyOnly(), b.startedAt(),
                    b.finishedAt(), b.sizeBytes(), b.compressedSizeBytes(), b.compressionAlgorithm(), b.target(),
                    b.onSecondary(), b.snapshot());
            assertThat(back).isEqualTo(r);
        }
        DatabaseBackup none = of(variants().get(1));
        assertThat(none.startedAt()).isNull();
        assertThat(none.finishedAt()).isNull();
        assertThat(none.compressedSizeBytes()).isNull();
        assertThat(of(full()).compressedSizeBytes()).isEqualTo(2_500_000_000L);
    }

    @Test
    void equalExactlyWhenTheRecordsAreAndHashedAsTheRecordWas() {
        List<Record> records = variants();
        for (Record r : records) {
            for (Record o : records) {
                assertThat(of(r).equals(of(o))).as("%s against %s", r, o).isEqualTo(r.equals(o));
            }
            assertThat(of(r)).isEqualTo(of(r)).hasSameHashCodeAs(of(r));
            // the record's hash: a map of backups iterates in the order it did
            assertThat(of(r).hashCode()).as("%s", r).isEqualTo(r.hashCode());
            assertThat(of(r).toString()).isEqualTo(r.toString().replaceFirst("^Record", "DatabaseBackup"));
        }
        assertThat(of(full())).isNotEqualTo(null).isNotEqualTo(full());
    }

    @Test
    void theComparisonsWithoutInstantsAnswerAsTheInstantsDo() {
        Instant[] times = {START, START.plusNanos(1), START.minusNanos(1), START.plusSeconds(1).minusNanos(2),
                START.minusSeconds(1).plusNanos(2), FINISH, Instant.EPOCH, Instant.parse("1960-01-01T00:00:00.5Z")};
        Record f = full();
        for (Instant a : times) {
            DatabaseBackup one = of(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), a, a,
                    1, null, null, null, false, false));
            for (Instant t : times) {
                DatabaseBackup other = of(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), t,
                        t, 1, null, null, null, false, false));
                assertThat(one.finishedAfter(other)).as("%s after %s", a, t).isEqualTo(a.isAfter(t));
                assertThat(one.finishedAfter(t)).as("%s after %s", a, t).isEqualTo(a.isAfter(t));
                assertThat(one.finishedBefore(t)).as("%s before %s", a, t).isEqualTo(a.isBefore(t));
                assertThat(one.startedAfter(t)).as("%s after %s", a, t).isEqualTo(a.isAfter(t));
            }
        }
    }

    @Test
    void durationAndThroughputAsBefore() {
        DatabaseBackup b = of(full());
        // 01:00:00.123456789 to 01:42:17.5: 2,537 whole seconds
        assertThat(b.durationSeconds()).isEqualTo(2_537);
        assertThat(b.throughputMbps()).isEqualTo(7_000_000_000L / 1_048_576.0 / 2_537);
        Record f = full();
        DatabaseBackup backwards = of(new Record(f.instance(), f.database(), f.databaseKey(), f.type(), f.copyOnly(), FINISH,
                START, f.sizeBytes(), null, null, null, false, false));
        assertThat(backwards.durationSeconds()).isZero();
        assertThat(backwards.throughputMbps()).isZero();
        DatabaseBackup unfinished = of(variants().get(variants().size() - 1));
        assertThatThrownBy(unfinished::durationSeconds).isInstanceOf(NullPointerException.class);
        assertThat(b.isFull()).isTrue();
        assertThat(of(variants().get(3)).isFull()).isFalse();
    }
}
