package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

/**
 * A large msdb for the TDS test server: sql2022-enterprise-hardware whose backupset holds {@code rows} generated
 * backups (a full every 96th, logs between, 40 databases, half QAT_DEFLATE), answered page by page as SQL Server
 * answers the agent's keyset query. Used by the paging tests, {@code scripts/agent-footprint.sh} and
 * {@code scripts/agent-cycle-cost.sh}. The query's upper bound ({@code backup_set_id <= N}) is honoured when present,
 * so agents from before it was added can be measured against the same msdb.
 */
public final class FootprintMsdb {

    static final Pattern TOP = Pattern.compile("SELECT TOP \\((\\d+)\\)");
    static final Pattern AFTER = Pattern.compile("backup_set_id > (\\d+)");
    static final Pattern UP_TO = Pattern.compile("backup_set_id <= (\\d+)");
    static final List<Column> BACKUPSET = List.of(
            Column.col("backup_set_id", "int"), Column.col("database_name", "nvarchar(128)"),
            Column.col("database_guid", "uniqueidentifier"), Column.col("type", "char(1)"), Column.col("is_copy_only", "bit"),
            Column.col("backup_start_date", "datetime"), Column.col("backup_finish_date", "datetime"),
            Column.col("time_zone", "smallint"), Column.col("backup_size", "numeric(20,0)"),
            Column.col("compressed_backup_size", "numeric(20,0)"), Column.col("compression_algorithm", "nvarchar(32)"),
            Column.col("has_backup_checksums", "bit"), Column.col("key_algorithm", "nvarchar(32)"),
            Column.col("encryptor_thumbprint", "varbinary(20)"), Column.col("encryptor_type", "nvarchar(32)"),
            Column.col("device_type", "tinyint"), Column.col("physical_device_name", "nvarchar(260)"),
            Column.col("server_name", "nvarchar(128)"), Column.col("family_guid", "uniqueidentifier"), Column.col("is_snapshot", "bit"));
    private static final LocalDateTime FIRST_BACKUP = LocalDateTime.parse("2023-01-01T00:00:00");

    private FootprintMsdb() {
    }

    /** The scenario; {@code rows} may grow while it serves (new backups). */
    public static Scenario scenario(AtomicLong rows) {
        return Scenario.fromResource("/sqlserver/scenarios/sql2022-enterprise-hardware.json").answer("latest-backup-set-id.sql",
                sql -> TdsResponse.rows(List.of(Column.col("latest_backup_set_id", "int")), List.of(List.of(rows.get()))))
                .answer("backup-history-2022.sql", sql -> {
                    long top = number(TOP, sql);
                    long after = number(AFTER, sql);
                    Matcher upTo = UP_TO.matcher(sql);
                    long last = Math.min(upTo.find() ? Long.parseLong(upTo.group(1)) : rows.get(), after + top);
                    Iterable<List<?>> page = () -> LongStream.rangeClosed(after + 1, last).<List<?>>mapToObj(FootprintMsdb::backupRow)
                            .iterator();
                    return TdsResponse.rows(BACKUPSET, page);
                });
    }

    /** Backup set {@code id} as a row of {@link #BACKUPSET}, written by server SQL01\PROD. */
    static List<?> backupRow(long id) {
        boolean full = id % 96 == 0;
        LocalDateTime start = FIRST_BACKUP.plusMinutes(15 * id);
        long size = full ? 50_000_000_000L + id * 1000 : 200_000_000L;
        List<Object> row = new ArrayList<>();
        row.add(id);
        row.add("db" + (id % 40));
        row.add(String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", id % 40));
        row.add(full ? "D" : "L");
        row.add(false);
        row.add(start.toString());
        row.add(start.plusSeconds(full ? 240 : 3).toString());
        row.add(4);
        row.add(size);
        row.add(size / 3);
        row.add(id % 2 == 0 ? "QAT_DEFLATE" : "MS_XPRESS");
        row.add(true);
        row.add("NO_Encryption");
        row.add(null);
        row.add(null);
        row.add(2);
        row.add("\\\\backup01\\sql\\db" + (id % 40) + "\\" + id + ".bak");
        row.add("SQL01\\PROD");
        row.add(String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", id % 40));
        row.add(false);
        return row;
    }

    /** The number {@code p} finds in a batch; a batch without it is a broken query. */
    static long number(Pattern p, String sql) {
        Matcher m = p.matcher(sql);
        if (!m.find()) {
            throw new AssertionError("query lacks " + p + ": " + sql);
        }
        return Long.parseLong(m.group(1));
    }
}
