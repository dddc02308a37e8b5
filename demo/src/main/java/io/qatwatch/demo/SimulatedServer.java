package io.qatwatch.demo;

import io.qatwatch.tds.Column;
import io.qatwatch.tds.Scenario;
import io.qatwatch.tds.TdsResponse;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One simulated SQL Server instance of the demo, answering the agent's queries through the TDS test server: fixed
 * facts (version, configuration, databases, availability group) and an msdb whose backups appear when they finish
 * and run while the clock is between their start and finish. Times go to the agent as the server's local time in
 * {@code offset}, with {@code time_zone} saying so, as SQL Server writes them.
 */
final class SimulatedServer {

    /** One backup set: its database, type, when (server local time), how big, compressed how and written where. */
    record Backup(String database, String databaseGuid, String type, boolean copyOnly, LocalDateTime start,
            LocalDateTime finish, long sizeBytes, long compressedBytes, String algorithm, int deviceType, String path) {
    }

    private static final Pattern PAGE_SIZE = Pattern.compile("TOP \\((\\d+)\\)");
    private static final Pattern AFTER = Pattern.compile("backup_set_id > (\\d+)");
    private static final Pattern UP_TO = Pattern.compile("backup_set_id <= (\\d+)");

    final String host;
    final String instance;
    final ZoneOffset offset;
    private final Clock clock;
    private final String productVersion;
    private final Map<String, Object> serverProperties;
    private final List<Map<String, Object>> configuration;
    private final List<Map<String, Object>> accelerators;
    private final List<Map<String, Object>> databases;
    private final List<Map<String, Object>> encryption;
    private final List<Map<String, Object>> replicas;
    /** In the order msdb numbers them: by finish. */
    private final List<Backup> backups;

    SimulatedServer(String host, String instance, ZoneOffset offset, Clock clock, String productVersion,
            Map<String, Object> serverProperties, List<Map<String, Object>> configuration,
            List<Map<String, Object>> accelerators, List<Map<String, Object>> databases,
            List<Map<String, Object>> encryption, List<Map<String, Object>> replicas, List<Backup> backups) {
        this.host = host;
        this.instance = instance;
        this.offset = offset;
        this.clock = clock;
        this.productVersion = productVersion;
        this.serverProperties = serverProperties;
        this.configuration = configuration;
        this.accelerators = accelerators;
        this.databases = databases;
        this.encryption = encryption;
        this.replicas = replicas;
        List<Backup> sorted = new ArrayList<>(backups);
        sorted.sort(Comparator.comparing(Backup::finish));
        this.backups = List.copyOf(sorted);
    }

    List<Backup> backups() {
        return backups;
    }

    /** The scenario the TDS test server answers with for this instance. */
    Scenario scenario() {
        Scenario s = Scenario.named("demo " + host + "/" + instance).productVersion(productVersion);
        fixed(s, "server-properties.sql", List.of(serverProperties));
        fixed(s, "configuration.sql", configuration);
        fixed(s, "accelerator-status.sql", accelerators);
        fixed(s, "databases.sql", databases);
        fixed(s, "database-guids.sql", databases);
        fixed(s, "database-encryption.sql", encryption);
        fixed(s, "availability-databases.sql", replicas);
        fixed(s, "certificates.sql", List.of());
        fixed(s, "asymmetric-keys.sql", List.of());
        // SQL Server Agent runs, with no job the demo shows; msdb holds no restore; no Ola Hallengren CommandLog (Msg 208)
        fixed(s, "agent-status.sql", List.of(Map.of("engine_edition", serverProperties.get("engine_edition"), "agent_xps", 1)));
        for (String empty : List.of("agent-jobs.sql", "agent-schedules.sql", "job-history.sql", "job-history-latest.sql",
                "restore-history.sql", "restore-history-latest.sql")) {
            fixed(s, empty, List.of());
        }
        List<Column> history = QueryColumns.of("backup-history-2022.sql");
        s.answer("backup-history-2022.sql", sql -> TdsResponse.rows(history, historyPage(sql, history)));
        List<Column> running = QueryColumns.of("running-backups.sql");
        s.answer("running-backups.sql", sql -> TdsResponse.rows(running, rows(running, running())));
        List<Column> latest = QueryColumns.of("latest-backup-set-id.sql");
        s.answer("latest-backup-set-id.sql", sql -> TdsResponse.rows(latest, rows(latest,
                List.of(Map.of(latest.get(0).name(), finishedBy(clock.instant()))))));
        return s;
    }

    private void fixed(Scenario s, String query, List<Map<String, Object>> rows) {
        List<Column> columns = QueryColumns.of(query);
        s.answer(query, TdsResponse.rows(columns, rows(columns, rows)));
    }

    /** Rows in the columns' order; a column the map does not name is NULL. */
    private static List<List<Object>> rows(List<Column> columns, List<Map<String, Object>> maps) {
        List<List<Object>> rows = new ArrayList<>();
        for (Map<String, Object> map : maps) {
            List<Object> row = new ArrayList<>();
            columns.forEach(c -> row.add(map.get(c.name())));
            rows.add(row);
        }
        return rows;
    }

    /** How many backups had finished at {@code now}: msdb numbers a set when it is written, at its finish. */
    int finishedBy(Instant now) {
        int n = 0;
        for (Backup b : backups) {
            if (b.finish().toInstant(offset).isAfter(now)) {
                break;
            }
            n++;
        }
        return n;
    }

    /** One keyset page as the agent asks for it: {@code TOP (n)} sets above {@code backup_set_id > m}, up to its top, finished by now. */
    private List<List<Object>> historyPage(String sql, List<Column> columns) {
        Matcher size = PAGE_SIZE.matcher(sql);
        Matcher after = AFTER.matcher(sql);
        int pageSize = size.find() ? Integer.parseInt(size.group(1)) : 5000;
        int from = after.find() ? Integer.parseInt(after.group(1)) : 0;
        Matcher upTo = UP_TO.matcher(sql);
        int to = Math.min(Math.min(finishedBy(clock.instant()), from + pageSize), upTo.find() ? Integer.parseInt(upTo.group(1)) : Integer.MAX_VALUE);
        List<Map<String, Object>> page = new ArrayList<>();
        for (int id = from + 1; id <= to; id++) {
            page.add(row(id, backups.get(id - 1)));
        }
        return rows(columns, page);
    }

    private Map<String, Object> row(int id, Backup b) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("backup_set_id", id);
        r.put("database_name", b.database());
        r.put("database_guid", b.databaseGuid());
        r.put("type", b.type());
        r.put("is_copy_only", b.copyOnly());
        r.put("backup_start_date", b.start().toString());
        r.put("backup_finish_date", b.finish().toString());
        // msdb's time_zone: the server's offset from UTC in 15-minute intervals
        r.put("time_zone", offset.getTotalSeconds() / 900);
        r.put("backup_size", BigDecimal.valueOf(b.sizeBytes()));
        r.put("compressed_backup_size", BigDecimal.valueOf(b.compressedBytes()));
        r.put("compression_algorithm", b.algorithm());
        r.put("has_backup_checksums", true);
        r.put("device_type", b.deviceType());
        r.put("physical_device_name", b.path());
        // this instance wrote it (a restore would bring in sets of another server's name, which the agent skips)
        r.put("server_name", serverProperties.get("server_name"));
        r.put("family_guid", b.databaseGuid());
        r.put("is_snapshot", false);
        return r;
    }

    /** What sys.dm_exec_requests shows now: the backups between their start and finish, or the one row saying none runs. */
    List<Map<String, Object>> running() {
        Instant now = clock.instant();
        List<Map<String, Object>> rows = new ArrayList<>();
        int session = 61;
        for (Backup b : backups) {
            Instant start = b.start().toInstant(offset);
            Instant finish = b.finish().toInstant(offset);
            if (!start.isAfter(now) && finish.isAfter(now)) {
                long elapsed = Duration.between(start, now).toMillis();
                long total = Duration.between(start, finish).toMillis();
                Map<String, Object> r = permissionRow();
                r.put("session_id", session++);
                r.put("command", b.type().equals("L") ? "BACKUP LOG" : "BACKUP DATABASE");
                r.put("database_name", b.database());
                r.put("start_time", b.start().toString());
                r.put("percent_complete", (float) (100.0 * elapsed / total));
                r.put("total_elapsed_time", elapsed);
                r.put("estimated_completion_time", total - elapsed);
                rows.add(r);
            }
        }
        return rows.isEmpty() ? List.of(permissionRow()) : rows;
    }

    private Map<String, Object> permissionRow() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("can_see_all_sessions", 1);
        r.put("server_utc_offset_minutes", offset.getTotalSeconds() / 60);
        return r;
    }
}
