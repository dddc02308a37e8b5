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

    /** A SQL Server Agent job with one T-SQL step, as msdb.dbo.sysjobs and sysjobsteps hold it. */
    record Job(String jobId, String name, String category, String command) {
    }

    /** One finished run of a job (its outcome, step 0), server local time. */
    record JobRun(Job job, LocalDateTime start, LocalDateTime finish) {
    }

    private static final Pattern JOB_AFTER = Pattern.compile("instance_id > (\\d+)");
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
    private List<Job> jobs = List.of();
    /** In the order msdb.dbo.sysjobhistory numbers them: by finish. */
    private List<JobRun> runs = List.of();

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

    /** This instance's Agent also runs {@code jobs} that do not back up, which ran {@code runs}; returns this. */
    SimulatedServer withJobs(List<Job> jobs, List<JobRun> runs) {
        this.jobs = List.copyOf(jobs);
        List<JobRun> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparing(JobRun::finish));
        this.runs = List.copyOf(sorted);
        return this;
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
        // SQL Server Agent runs the jobs given (none by default); msdb holds no restore; no Ola Hallengren CommandLog (Msg 208)
        fixed(s, "agent-status.sql", List.of(Map.of("engine_edition", serverProperties.get("engine_edition"), "agent_xps", 1)));
        fixed(s, "agent-jobs.sql", jobs.stream().map(SimulatedServer::jobRow).toList());
        for (String empty : List.of("agent-schedules.sql", "restore-history.sql", "restore-history-latest.sql")) {
            fixed(s, empty, List.of());
        }
        List<Column> jobHistory = QueryColumns.of("job-history.sql");
        s.answer("job-history.sql", sql -> TdsResponse.rows(jobHistory, jobHistoryPage(sql, jobHistory)));
        List<Column> jobLatest = QueryColumns.of("job-history-latest.sql");
        s.answer("job-history-latest.sql", sql -> {
            int finished = jobRunsFinishedBy(clock.instant());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(jobLatest.get(0).name(), finished == 0 ? null : finished);
            return TdsResponse.rows(jobLatest, rows(jobLatest, List.of(row)));
        });
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

    private static Map<String, Object> jobRow(Job j) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("job_id", j.jobId());
        r.put("job_name", j.name());
        r.put("category_name", j.category());
        r.put("job_enabled", 1);
        r.put("step_id", 1);
        r.put("step_name", j.name());
        r.put("subsystem", "TSQL");
        r.put("command", j.command());
        return r;
    }

    private int jobRunsFinishedBy(Instant now) {
        return finishedBy(runs, JobRun::finish, now);
    }

    /** How many of {@code items}, in order of finish, had finished at {@code now} (server local times). */
    private <T> int finishedBy(List<T> items, java.util.function.Function<T, LocalDateTime> finish, Instant now) {
        int n = 0;
        for (T item : items) {
            if (finish.apply(item).toInstant(offset).isAfter(now)) {
                break;
            }
            n++;
        }
        return n;
    }

    /** One page of job outcomes above {@code instance_id > m}, {@code TOP (n)}, finished by now, as sysjobhistory packs them. */
    private List<List<Object>> jobHistoryPage(String sql, List<Column> columns) {
        Matcher size = PAGE_SIZE.matcher(sql);
        Matcher after = JOB_AFTER.matcher(sql);
        int pageSize = size.find() ? Integer.parseInt(size.group(1)) : 1000;
        int from = after.find() ? Integer.parseInt(after.group(1)) : 0;
        int to = Math.min(jobRunsFinishedBy(clock.instant()), from + pageSize);
        List<Map<String, Object>> page = new ArrayList<>();
        for (int id = from + 1; id <= to; id++) {
            JobRun run = runs.get(id - 1);
            long seconds = Duration.between(run.start(), run.finish()).toSeconds();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("instance_id", id);
            r.put("job_id", run.job().jobId());
            r.put("job_name", run.job().name());
            r.put("step_id", 0);
            r.put("step_name", "(Job outcome)");
            r.put("sql_message_id", 0);
            r.put("sql_severity", 0);
            r.put("message", "The job succeeded.  The Job was invoked by Schedule 1 (nightly).  The last step to run was step 1.");
            r.put("run_status", 1);
            // run_date yyyymmdd, run_time and run_duration HHMMSS, packed as integers
            r.put("run_date", run.start().getYear() * 10_000 + run.start().getMonthValue() * 100 + run.start().getDayOfMonth());
            r.put("run_time", run.start().getHour() * 10_000 + run.start().getMinute() * 100 + run.start().getSecond());
            r.put("run_duration", (int) (seconds / 3600 * 10_000 + seconds / 60 % 60 * 100 + seconds % 60));
            r.put("server_utc_offset_minutes", offset.getTotalSeconds() / 60);
            page.add(r);
        }
        return rows(columns, page);
    }

    /** How many backups had finished at {@code now}: msdb numbers a set when it is written, at its finish. */
    int finishedBy(Instant now) {
        return finishedBy(backups, Backup::finish, now);
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
