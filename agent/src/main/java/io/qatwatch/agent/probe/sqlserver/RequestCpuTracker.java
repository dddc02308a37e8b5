package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The CPU of each BACKUP and RESTORE request the polls see (issue 30): the last sample of the request's and its
 * session's {@code cpu_time}, and the SQL Server process's CPU on the host over the polls that saw it, less the
 * process's idle rate. A backup's figures wait here until its {@code backupset} row is read (same database, a matching
 * type, a start within {@link #MATCH_TOLERANCE}); a restore's are handed on when it ends. Pure: times and samples are
 * passed in. Not thread-safe: one probe cycle at a time uses it.
 */
final class RequestCpuTracker {

    /** How far apart a request's {@code start_time} and its backupset's {@code backup_start_date} may be (clock skew, set-up). */
    static final Duration MATCH_TOLERANCE = Duration.ofSeconds(60);
    /** How long an ended backup waits for its backupset row before it is forgotten. */
    static final Duration KEEP = Duration.ofHours(24);
    /** Ended backups kept at most: a heap bound for an instance whose history is not read. */
    static final int MAX_ENDED = 256;
    /** An idle rate older than this before a run is not taken as its baseline. */
    static final Duration BASELINE_MAX_AGE = Duration.ofHours(6);
    /** Host samples taken after a run ends with nothing running: the closing one and one more, for the idle rate. */
    private static final int IDLE_SAMPLES_AFTER_RUN = 2;

    /** One row of running-backups.sql: a BACKUP or RESTORE request at this poll. */
    record RequestSample(int sessionId, String command, String databaseName, Instant startedAt, double percentComplete,
                         long elapsedSeconds, Long requestCpuMs, Long sessionCpuMs) {

        boolean restore() {
            return command.toUpperCase(Locale.ROOT).startsWith("RESTORE");
        }
    }

    private record Key(int sessionId, Instant startedAt, String databaseName, String command) {
    }

    private static Key key(RequestSample s) {
        return new Key(s.sessionId(), s.startedAt(), s.databaseName(), s.command());
    }

    /** One batch: a job step that backs up several databases in turn is one request, its cpu_time counts them all. */
    private record Batch(int sessionId, Instant startedAt) {
    }

    private record Rate(double cpuPerMilli, Instant measuredAt) {
    }

    private final Map<Key, Observed> live = new LinkedHashMap<>();
    private final List<Observed> ended = new ArrayList<>();
    /** The request's cpu_time at the last sample of the database it backed up before this one, per batch. */
    private final Map<Batch, Long> batchCpu = new LinkedHashMap<>();
    private SqlServerProcess.Sample previousProcess;
    private Instant previousAt;
    private boolean previousIdle;
    private Rate idle;
    private int idleSamplesWanted;

    /** Whether this poll should read the host's process: something runs, or a run just ended and the idle rate is wanted. */
    boolean wantsProcessSample(boolean somethingRuns) {
        return somethingRuns || !live.isEmpty() || idleSamplesWanted > 0;
    }

    /**
     * Records one poll.
     *
     * @param at      when the poll ran
     * @param running every BACKUP and RESTORE request the poll saw
     * @param process the host's process reading at this poll; null when none was taken
     * @return the restores that ended since the previous poll
     */
    List<ObservedRestore> observe(Instant at, List<RequestSample> running, SqlServerProcess.Sample process) {
        SqlServerProcess.Sample host = process != null && process.read() ? process : null;
        Set<Key> now = new HashSet<>();
        for (RequestSample s : running) {
            now.add(key(s));
        }
        // Ended first: a batch's next database starts from the cpu_time its previous one had reached.
        List<ObservedRestore> restores = new ArrayList<>();
        boolean anyEnded = false;
        for (Map.Entry<Key, Observed> e : live.entrySet()) {
            if (now.contains(e.getKey())) {
                continue;
            }
            anyEnded = true;
            Observed o = e.getValue();
            if (running.isEmpty()) {
                o.closing(at, host);
            }
            batchCpu.put(new Batch(o.first.sessionId(), o.first.startedAt()), o.lastRequestCpu);
            if (o.first.restore()) {
                restores.add(o.restore());
            } else {
                ended.add(o);
            }
        }
        Map<Key, Observed> seen = new LinkedHashMap<>();
        for (RequestSample s : running) {
            Key key = key(s);
            Observed o = live.get(key);
            if (o == null) {
                o = new Observed(s, at, batchCpu.get(new Batch(s.sessionId(), s.startedAt())), baseline(s.startedAt(), at, host));
            }
            o.sample(s, at, host, process);
            seen.put(key, o);
        }
        if (seen.size() > 1) {
            for (Observed o : seen.values()) {
                o.overlappedBy(seen.values());
            }
        }
        live.clear();
        live.putAll(seen);
        idleRate(at, running.isEmpty(), host, anyEnded);
        forget(at);
        return restores;
    }

    /** The backups with the CPU their requests were seen to use, where one matches; the others unchanged. */
    List<BackupRecord> attach(List<BackupRecord> backups) {
        if (backups == null || ended.isEmpty()) {
            return backups;
        }
        List<BackupRecord> out = new ArrayList<>(backups.size());
        for (BackupRecord b : backups) {
            Observed match = null;
            for (Observed o : ended) {
                if (o.matches(b)) {
                    match = o;
                    break;
                }
            }
            if (match == null || b.cpu() != null) {
                out.add(b);
            } else {
                ended.remove(match);
                out.add(b.withCpu(match.cpu(b.finishedAt())));
            }
        }
        return out;
    }

    /** Ended backups still waiting for their backupset row (for tests and the heap bound). */
    int waiting() {
        return ended.size();
    }

    private void idleRate(Instant at, boolean nothingRuns, SqlServerProcess.Sample host, boolean anyEnded) {
        if (nothingRuns && anyEnded) {
            idleSamplesWanted = IDLE_SAMPLES_AFTER_RUN;
        }
        if (nothingRuns && host != null) {
            if (previousIdle && previousProcess != null && previousProcess.processId() == host.processId()
                    && at.isAfter(previousAt)) {
                idle = new Rate((double) (host.cpuMillis() - previousProcess.cpuMillis())
                        / Duration.between(previousAt, at).toMillis(), at);
            }
            idleSamplesWanted = Math.max(0, idleSamplesWanted - 1);
        }
        if (host != null) {
            previousProcess = host;
            previousAt = at;
            previousIdle = nothingRuns;
        }
    }

    /** The process's rate to subtract from a run starting at {@code start}: the latest idle rate, else its lifetime average. */
    private Baseline baseline(Instant start, Instant at, SqlServerProcess.Sample host) {
        if (idle != null && !idle.measuredAt().isAfter(start.plus(MATCH_TOLERANCE))
                && Duration.between(idle.measuredAt(), start).compareTo(BASELINE_MAX_AGE) <= 0) {
            return new Baseline(Math.max(0, idle.cpuPerMilli()), null);
        }
        if (host != null && host.startedAt() != null) {
            long lifetime = Duration.between(host.startedAt(), at).toMillis();
            if (lifetime > 0) {
                return new Baseline((double) host.cpuMillis() / lifetime,
                        "baseline: the SQL Server process's average rate since it started (no idle sample before this run)");
            }
        }
        return null;
    }

    private void forget(Instant now) {
        ended.removeIf(o -> o.lastAt.isBefore(now.minus(KEEP)));
        while (ended.size() > MAX_ENDED) {
            ended.remove(0);
        }
        Iterator<Map.Entry<Batch, Long>> batches = batchCpu.entrySet().iterator();
        while (batches.hasNext()) {
            Batch b = batches.next().getKey();
            boolean inUse = live.keySet().stream().anyMatch(k -> k.sessionId() == b.sessionId() && k.startedAt().equals(b.startedAt()));
            if (!inUse) {
                batches.remove();
            }
        }
    }

    private record Baseline(double cpuPerMilli, String note) {
    }

    /** What the polls saw of one request (one database of a batch). */
    private static final class Observed {
        final RequestSample first;
        final Instant firstAt;
        final Long batchBase;
        final Baseline baseline;
        RequestSample last;
        Instant lastAt;
        int samples;
        Long firstSessionCpu;
        Long lastSessionCpu;
        Long lastRequestCpu;
        SqlServerProcess.Sample processFirst;
        Instant processFirstAt;
        SqlServerProcess.Sample processLast;
        Instant processLastAt;
        int processSamples;
        String processWhy;
        String overlap;
        boolean restarted;

        Observed(RequestSample first, Instant at, Long batchBase, Baseline baseline) {
            this.first = first;
            this.firstAt = at;
            this.batchBase = batchBase;
            this.baseline = baseline;
        }

        void sample(RequestSample s, Instant at, SqlServerProcess.Sample host, SqlServerProcess.Sample asked) {
            last = s;
            lastAt = at;
            samples++;
            if (s.sessionCpuMs() != null) {
                if (firstSessionCpu == null) {
                    firstSessionCpu = s.sessionCpuMs();
                }
                lastSessionCpu = s.sessionCpuMs();
            }
            if (s.requestCpuMs() != null) {
                lastRequestCpu = s.requestCpuMs();
            }
            if (host != null) {
                process(host, at);
            } else if (asked != null && asked.why() != null) {
                processWhy = asked.why();
            }
        }

        void closing(Instant at, SqlServerProcess.Sample host) {
            if (host != null) {
                process(host, at);
            }
        }

        private void process(SqlServerProcess.Sample host, Instant at) {
            if (processFirst == null) {
                processFirst = host;
                processFirstAt = at;
            } else if (processFirst.processId() != host.processId()) {
                restarted = true;
            }
            processLast = host;
            processLastAt = at;
            processSamples++;
        }

        void overlappedBy(Iterable<Observed> others) {
            if (overlap != null) {
                return;
            }
            for (Observed o : others) {
                if (o != this) {
                    overlap = "overlapped with " + o.first.command() + " of " + o.first.databaseName() + " (session "
                            + o.first.sessionId() + "): the process's CPU is not this request's alone";
                    return;
                }
            }
        }

        boolean matches(BackupRecord b) {
            if (!Objects.equals(first.databaseName(), b.databaseName()) || b.startedAt() == null || !typeMatches(b.type())) {
                return false;
            }
            // The request starts first (the batch arrives, then BACKUP sets up); the backup began before a poll saw it.
            return !b.startedAt().isBefore(first.startedAt().minus(MATCH_TOLERANCE))
                    && !b.startedAt().isAfter(firstAt.plus(MATCH_TOLERANCE))
                    && (b.finishedAt() == null || !b.finishedAt().isBefore(lastAt.minus(MATCH_TOLERANCE)));
        }

        private boolean typeMatches(String type) {
            String command = first.command().toUpperCase(Locale.ROOT);
            return command.startsWith("BACKUP LOG") ? "L".equals(type) : !"L".equals(type);
        }

        BackupCpu cpu(Instant finishedAt) {
            Long request = lastRequestCpu == null ? null : Math.max(0, lastRequestCpu - (batchBase == null ? 0 : batchBase));
            Long session = firstSessionCpu == null || samples < 2 ? null : Math.max(0, lastSessionCpu - firstSessionCpu);
            Long processCpu = null;
            Boolean reliable = null;
            String note = processWhy;
            if (processFirst != null) {
                if (restarted) {
                    note = "SQL Server restarted during the run";
                    reliable = false;
                } else if (processSamples < 2) {
                    note = "one host sample only: the process's CPU over the run needs two";
                } else {
                    // The closing sample may fall after the run ended: that part is the baseline's, not the backup's.
                    long wall = Duration.between(processFirstAt, processLastAt).toMillis();
                    double base = baseline == null ? 0 : baseline.cpuPerMilli() * wall;
                    processCpu = Math.max(0, Math.round(processLast.cpuMillis() - processFirst.cpuMillis() - base));
                    reliable = overlap == null;
                    note = overlap != null ? overlap
                            : baseline == null ? "no baseline: nothing is subtracted for the rest of SQL Server's work"
                            : baseline.note();
                }
            }
            return new BackupCpu(request, session, samples, firstAt, lastAt, processCpu, processFirst == null ? null : processSamples,
                    reliable, note);
        }

        ObservedRestore restore() {
            return new ObservedRestore(first.databaseName(), first.command(), first.startedAt(), lastAt, last.elapsedSeconds(),
                    last.percentComplete(), cpu(null));
        }
    }
}
