package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * How the alert stage's reads decode {@code backups} rows (not host and instance), with as few column reads per row
 * as the database makes cheap: through sqlite-jdbc every column read is a native call, most of a row's cost (~0.3 µs
 * each against ~1 µs to step to the row). So the flags and nulls are packed into one integer in SQL, the encryption
 * columns read only when one is set, and on SQLite the other texts come as one, split here: 8 column reads a row
 * instead of 30. Which texts are null the flags say; a row whose texts hold the separator is read column by column.
 * It reads the log-chain columns of issue 31 (LSNs, differential base, recovery model, begins_log_chain, device name),
 * which the alert stage turns into compact {@code LogChain}s and does not keep in its records. Of the CPU of issue 30
 * it reads what the compression comparison needs, one column for a row without it (the first sample's time, null), four
 * more for a row with it (request and process milliseconds, the last sample's time, whether the process figure is
 * reliable): those records' {@code samples} is 1, the session figure and the note null. {@link BackupsTable#read} reads
 * every column.
 */
final class BackupRows {

    private BackupRows() {
    }

    /** Separates the texts SQLite joins into one. */
    private static final char SEPARATOR = '\u001f';
    private static final String[] TEXT_COLUMNS = {"database_name", "database_guid", "type", "algorithm", "device_type",
            "target", "family_guid", "first_lsn", "last_lsn", "checkpoint_lsn", "database_backup_lsn", "differential_base_lsn",
            "differential_base_guid", "recovery_model", "begins_log_chain", "incomplete_metadata", "physical_device_name",
            "backup_set_uuid"};
    /**
     * The texts that repeat from row to row of an instance (its databases' names and guids, the backup type, algorithm,
     * device, target, family guid, differential base guid, recovery model): each is kept once per read ({@link Shared}).
     * LSNs, device names and backup set uuids are mostly a row's own and are not looked up.
     */
    private static final boolean[] REPEATING = new boolean[TEXT_COLUMNS.length];

    static {
        for (int t : new int[] {0, 1, 2, 3, 4, 5, 6, 12, 13}) {
            REPEATING[t] = true;
        }
    }

    /**
     * The repeating texts of one read, each kept once: the rows of an instance's 90 nights carry its 20 database names
     * and guids ~2,000 times over. A text already kept is found from its place in the joined text, without copying it
     * out (9 fewer strings a row for the collector to collect); and the alert stage, which hashes, compares and
     * lower-cases them per row, finds them hashed already (a String keeps its hash) and equal by identity. One per read
     * of an instance, not thread-safe.
     */
    static final class Shared {

        private String[] table = new String[64];
        private int size;

        /** The text at {@code from} (inclusive) to {@code to} of {@code joined}, the one kept if it is kept. */
        String of(String joined, int from, int to) {
            int hash = 0;
            for (int i = from; i < to; i++) {
                hash = 31 * hash + joined.charAt(i);
            }
            int length = to - from;
            int mask = table.length - 1;
            for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
                String kept = table[slot];
                if (kept == null) {
                    return keep(slot, joined.substring(from, to));
                }
                if (kept.length() == length && kept.hashCode() == hash && joined.regionMatches(from, kept, 0, length)) {
                    return kept;
                }
            }
        }

        /** {@code text}, or the equal one kept. */
        String of(String text) {
            if (text == null) {
                return null;
            }
            int mask = table.length - 1;
            for (int slot = spread(text.hashCode()) & mask; ; slot = (slot + 1) & mask) {
                String kept = table[slot];
                if (kept == null) {
                    return keep(slot, text);
                }
                if (kept.equals(text)) {
                    return kept;
                }
            }
        }

        private String keep(int slot, String text) {
            table[slot] = text;
            if (++size * 2 > table.length) {
                String[] old = table;
                table = new String[old.length * 2];
                size = 0;
                for (String k : old) {
                    if (k != null) {
                        of(k);
                    }
                }
            }
            return text;
        }

        private static int spread(int hash) {
            return hash ^ (hash >>> 16);
        }
    }

    /** Bit of the flags saying the first text is null; the next texts' bits follow it. */
    private static final int TEXT_NULL = 128;
    private static final int MEDIA = TEXT_NULL << TEXT_COLUMNS.length;

    private static String flags() {
        StringBuilder flags = new StringBuilder("(CASE WHEN copy_only <> 0 THEN 1 ELSE 0 END)"
                + " + (CASE WHEN tz_known <> 0 THEN 2 ELSE 0 END) + (CASE WHEN checksums <> 0 THEN 4 ELSE 0 END)"
                + " + (CASE WHEN snapshot IS NULL THEN 8 WHEN snapshot <> 0 THEN 16 ELSE 0 END)"
                + " + (CASE WHEN compressed_bytes IS NULL THEN 32 ELSE 0 END)"
                + " + (CASE WHEN key_algorithm IS NULL AND encryptor_thumbprint IS NULL AND encryptor_type IS NULL"
                + " THEN 0 ELSE 64 END)");
        for (int t = 0; t < TEXT_COLUMNS.length; t++) {
            flags.append(" + (CASE WHEN ").append(TEXT_COLUMNS[t]).append(" IS NULL THEN ").append(TEXT_NULL << t)
                    .append(" ELSE 0 END)");
        }
        return flags.append(" + (CASE WHEN media_families IS NULL THEN 0 ELSE ").append(MEDIA)
                .append(" * (media_families + 1) END)").toString();
    }

    /** The columns {@link #read} reads, in its order, for {@code kind}. */
    static String columns(Database.Kind kind) {
        String texts = String.join(", ", TEXT_COLUMNS);
        String joined = "NULL";
        if (kind == Database.Kind.SQLITE) {
            // one concat_ws builds the joined text once; a chain of || copied it once per column (~0.45 µs a row of
            // SQLite's step, a fifth of it). concat_ws skips nulls, so each text is ifnull'd to keep its place.
            StringBuilder j = new StringBuilder("concat_ws(char(31)");
            for (String c : TEXT_COLUMNS) {
                j.append(", ifnull(").append(c).append(", '')");
            }
            joined = j.append(')').toString();
        }
        return "backup_set_id, started_at, finished_at, size_bytes, compressed_bytes, " + flags() + ", " + joined + ", "
                + texts + ", key_algorithm, encryptor_thumbprint, encryptor_type, cpu_first_at, cpu_last_at, cpu_request_ms, "
                + "cpu_process_ms, cpu_process_reliable";
    }

    /**
     * The record of a row selected with {@link #columns}, its first column at {@code at}; its repeating texts those
     * {@code shared} already holds.
     */
    static BackupRecord read(ResultSet rs, int at, Shared shared) throws SQLException {
        long flags = rs.getLong(at + 5);
        String[] texts = new String[TEXT_COLUMNS.length];
        String joined = rs.getString(at + 6);
        if (joined != null && separators(joined) == texts.length - 1) {
            int from = 0;
            for (int t = 0; t < texts.length; t++) {
                int to = t == texts.length - 1 ? joined.length() : joined.indexOf(SEPARATOR, from);
                texts[t] = (flags & (TEXT_NULL << t)) != 0 ? null
                        : REPEATING[t] ? shared.of(joined, from, to) : joined.substring(from, to);
                from = to + 1;
            }
        } else {
            // PostgreSQL, or a text holding the separator: each from its own column
            for (int t = 0; t < texts.length; t++) {
                texts[t] = REPEATING[t] ? shared.of(rs.getString(at + 7 + t)) : rs.getString(at + 7 + t);
            }
        }
        boolean encrypted = (flags & 64) != 0;
        int encryption = at + 7 + TEXT_COLUMNS.length;
        return new BackupRecord(
                rs.getLong(at),
                texts[0],
                texts[1],
                texts[2],
                (flags & 1) != 0,
                Instant.ofEpochMilli(rs.getLong(at + 1)),
                Instant.ofEpochMilli(rs.getLong(at + 2)),
                (flags & 2) != 0,
                rs.getLong(at + 3),
                (flags & 32) != 0 ? null : rs.getLong(at + 4),
                texts[3],
                (flags & 4) != 0,
                encrypted ? rs.getString(encryption) : null,
                encrypted ? rs.getString(encryption + 1) : null,
                encrypted ? rs.getString(encryption + 2) : null,
                texts[4],
                texts[5],
                texts[6],
                (flags & 8) != 0 ? null : (flags & 16) != 0,
                flags >= MEDIA ? (int) (flags / MEDIA) - 1 : null,
                texts[7],
                texts[8],
                texts[9],
                texts[10],
                texts[11],
                texts[12],
                texts[13],
                flag(texts[14]),
                flag(texts[15]),
                texts[16],
                cpu(rs, encryption + 3),
                texts[17]);
    }

    /** The CPU the compression comparison weighs; null (one column read) for a backup no poll saw run. */
    private static BackupCpu cpu(ResultSet rs, int at) throws SQLException {
        long first = rs.getLong(at);
        if (rs.wasNull()) {
            return null;
        }
        Instant last = Instant.ofEpochMilli(rs.getLong(at + 1));
        long request = rs.getLong(at + 2);
        Long requestMs = rs.wasNull() ? null : request;
        long process = rs.getLong(at + 3);
        Long processMs = rs.wasNull() ? null : process;
        Boolean reliable = processMs == null ? null : rs.getInt(at + 4) != 0;
        return new BackupCpu(requestMs, null, 1, Instant.ofEpochMilli(first), last, processMs, null, reliable, null);
    }

    /** A flag column read as text: SQLite's and PostgreSQL's integers 0 and 1. */
    private static Boolean flag(String text) {
        return text == null ? null : !text.equals("0");
    }

    private static int separators(String joined) {
        int n = 0;
        for (int i = joined.indexOf(SEPARATOR); i >= 0; i = joined.indexOf(SEPARATOR, i + 1)) {
            n++;
        }
        return n;
    }
}
