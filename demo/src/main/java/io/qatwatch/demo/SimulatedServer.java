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

    /**
     * One backup set: its database, type, when (server local time), how big, compressed how and written where; while it
     * runs, its request's {@code cpu_time} grows by {@code cpuMsPerSecond} each second; {@code observed}: the agent's
     * polls saw it run (the demo replays them at start, see {@link #replayPolls}).
     */
    record Backup(String database, String databaseGuid, String type, boolean copyOnly, LocalDateTime start,
            LocalDateTime finish, long sizeBytes, long compressedBytes, String algorithm, int deviceType, String path,
            double cpuMsPerSecond, boolean observed) {

        /** A backup of the history, from before the agent ran: no poll saw it. */
        Backup(String database, String databaseGuid, String type, boolean copyOnly, LocalDateTime start, LocalDateTime finish,
                long sizeBytes, long compressedBytes, String algorithm, int deviceType, String path) {
            this(database, databaseGuid, type, copyOnly, start, finish, sizeBytes, compressedBytes, algorithm, deviceType, path,
                    UNOBSERVED_CPU_MS_PER_SECOND, false);
        }
    }

    /**
     * A RESTORE DATABASE the agent's polls see run (msdb's restorehistory records no duration) of the backup set
     * {@code source}; its {@code cpu_time} grows by {@code cpuMsPerSecond}.
     */
    record Restore(String database, LocalDateTime start, LocalDateTime finish, double cpuMsPerSecond, Backup source) {
    }

    /** The {@code cpu_time} growth of a running backup the demo tells nothing about: one core's worth. */
    static final double UNOBSERVED_CPU_MS_PER_SECOND = 1000;
    /** {@code SERVERPROPERTY('ProcessID')} of every simulated instance. */
    private static final int PROCESS_ID = 4242;
    private static final Pattern RESTORES_AFTER = Pattern.compile("restore_history_id > (\\d+)");

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
    private final List<Restore> restores = new ArrayList<>();
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

    /** Adds a restore this instance runs (in msdb's restorehistory once it has finished). */
    SimulatedServer restore(Restore restore) {
        restores.add(restore);
        return this;
    }

    List<Restore> restores() {
        return List.copyOf(restores);
    }

    /**
     * The instants before {@code until} at which the agent, polling every {@code step} on a grid ending half a step before
     * {@code until}, would have seen an observed backup or restore run, and the poll after each such one: replayed through
     * the agent's probe at start so that its own request tracking measures their CPU. A restore still running at the last
     * of them is seen to end by the agent's first real poll, which hands it on.
     */
    List<Instant> replayPolls(Instant until, Duration step) {
        List<Instant[]> runs = new ArrayList<>();
        for (Backup b : backups) {
            if (b.observed()) {
                runs.add(new Instant[] {b.start().toInstant(offset), b.finish().toInstant(offset)});
            }
        }
        restores.forEach(r -> runs.add(new Instant[] {r.start().toInstant(offset), r.finish().toInstant(offset)}));
        Instant first = runs.stream().map(r -> r[0]).min(Instant::compareTo).orElse(until);
        List<Instant> polls = new ArrayList<>();
        for (Instant t = until.minus(step.dividedBy(2)); !t.isBefore(first); t = t.minus(step)) {
            Instant poll = t;
            Instant previous = t.minus(step);
            if (runs.stream().anyMatch(r -> runsAt(r, poll) || runsAt(r, previous))) {
                polls.add(0, poll);
            }
        }
        return polls;
    }

    private static boolean runsAt(Instant[] run, Instant t) {
        return !run[0].isAfter(t) && run[1].isAfter(t);
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
        // SQL Server Agent runs the jobs given (none by default); msdb holds the restores given; no Ola Hallengren CommandLog (Msg 208)
        fixed(s, "agent-status.sql", List.of(Map.of("engine_edition", serverProperties.get("engine_edition"), "agent_xps", 1)));
        fixed(s, "agent-jobs.sql", jobs.stream().map(SimulatedServer::jobRow).toList());
        fixed(s, "agent-schedules.sql", List.of());
        List<Column> restored = QueryColumns.of("restore-history.sql");
        s.answer("restore-history.sql", sql -> TdsResponse.rows(restored, rows(restored, restoreHistory(sql))));
        List<Column> latestRestore = QueryColumns.of("restore-history-latest.sql");
        s.answer("restore-history-latest.sql", sql -> TdsResponse.rows(latestRestore, rows(latestRestore, List.of(
                java.util.Collections.singletonMap(latestRestore.get(0).name(), finishedRestores().isEmpty() ? null
                        : (Object) finishedRestores().size())))));
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

    /** The restores that have finished by now, numbered as msdb's restorehistory does: by finish. */
    private List<Restore> finishedRestores() {
        Instant now = clock.instant();
        return restores.stream().filter(r -> !r.finish().toInstant(offset).isAfter(now))
                .sorted(Comparator.comparing(Restore::finish)).toList();
    }

    /** restorehistory joined with the backup set restored, above the agent's mark. */
    private List<Map<String, Object>> restoreHistory(String sql) {
        Matcher after = RESTORES_AFTER.matcher(sql);
        int from = after.find() ? Integer.parseInt(after.group(1)) : 0;
        List<Restore> finished = finishedRestores();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int id = from + 1; id <= finished.size(); id++) {
            Restore r = finished.get(id - 1);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("restore_history_id", id);
            row.put("destination_database_name", r.database());
            row.put("restore_date", r.finish().toString());
            row.put("restore_type", "D");
            row.put("source_server", serverProperties.get("server_name"));
            row.put("source_database", r.source().database());
            row.put("source_database_guid", r.source().databaseGuid());
            row.put("family_guid", r.source().databaseGuid());
            row.put("backup_finish_date", r.source().finish().toString());
            row.put("time_zone", offset.getTotalSeconds() / 900);
            row.put("backup_type", r.source().type());
            row.put("server_utc_offset_minutes", offset.getTotalSeconds() / 60);
            rows.add(row);
        }
        return rows;
    }

    /**
     * What sys.dm_exec_requests shows now: the backups and restores between their start and finish, each request's
     * {@code cpu_time} grown with its run, or the one row saying none runs.
     */
    List<Map<String, Object>> running() {
        Instant now = clock.instant();
        List<Map<String, Object>> rows = new ArrayList<>();
        int session = 61;
        for (Backup b : backups) {
            Map<String, Object> r = request(session, b.type().equals("L") ? "BACKUP LOG" : "BACKUP DATABASE", b.database(),
                    b.start(), b.finish(), b.cpuMsPerSecond(), now);
            if (r != null) {
                rows.add(r);
                session++;
            }
        }
        for (Restore restore : restores) {
            Map<String, Object> r = request(session, "RESTORE DATABASE", restore.database(), restore.start(), restore.finish(),
                    restore.cpuMsPerSecond(), now);
            if (r != null) {
                rows.add(r);
                session++;
            }
        }
        return rows.isEmpty() ? List.of(permissionRow()) : rows;
    }

    /** One request's row at {@code now}, or null when it does not run then. */
    private Map<String, Object> request(int session, String command, String database, LocalDateTime startLocal,
            LocalDateTime finishLocal, double cpuMsPerSecond, Instant now) {
        Instant start = startLocal.toInstant(offset);
        Instant finish = finishLocal.toInstant(offset);
        if (start.isAfter(now) || !finish.isAfter(now)) {
            return null;
        }
        long elapsed = Duration.between(start, now).toMillis();
        long total = Duration.between(start, finish).toMillis();
        long cpu = Math.round(cpuMsPerSecond * elapsed / 1000.0);
        Map<String, Object> r = permissionRow();
        r.put("session_id", session);
        r.put("command", command);
        r.put("database_name", database);
        r.put("start_time", startLocal.toString());
        r.put("percent_complete", (float) (100.0 * elapsed / total));
        r.put("total_elapsed_time", elapsed);
        r.put("estimated_completion_time", total - elapsed);
        r.put("request_cpu_ms", cpu);
        // the session ran its login's own small queries before the BACKUP or RESTORE statement
        r.put("session_cpu_ms", cpu + 15);
        return r;
    }

    private Map<String, Object> permissionRow() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("can_see_all_sessions", 1);
        r.put("server_utc_offset_minutes", offset.getTotalSeconds() / 60);
        r.put("process_id", PROCESS_ID);
        return r;
    }
}
