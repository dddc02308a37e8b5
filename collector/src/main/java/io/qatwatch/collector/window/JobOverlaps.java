package io.qatwatch.collector.window;

import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which SQL Server Agent jobs other than the backup jobs ran during the nightly windows, and by how many minutes a
 * night: the second thing that creeps (a CHECKDB or IndexOptimize that now overlaps the backups). Pure.
 */
public final class JobOverlaps {

    private JobOverlaps() {
    }

    /**
     * One job's overlap with the windows of a series of nights.
     *
     * @param minutes            minutes of overlap per night, in the nights' order (0 when it did not overlap)
     * @param slopeMinutesPerDay Theil–Sen slope of those minutes against the nights' dates; 0 with fewer than two nights
     */
    public record JobOverlap(String jobId, String jobName, String category, List<LocalDate> mornings, List<Double> minutes,
                             double slopeMinutesPerDay) {

        public double latestMinutes() {
            return minutes.isEmpty() ? 0 : minutes.get(minutes.size() - 1);
        }

        public double firstMinutes() {
            return minutes.isEmpty() ? 0 : minutes.get(0);
        }
    }

    /** A job run that overlapped one window: what the status page's chart marks. */
    public record Overlap(String jobId, String jobName, Instant from, Instant to) {
        public double minutes() {
            return Duration.between(from, to).getSeconds() / 60.0;
        }
    }

    /**
     * The finished runs (job outcomes, step 0) of jobs that do not back up, clipped to the window's span; a job not in
     * {@code jobs} (deleted since) is taken as not backing up.
     */
    public static List<Overlap> of(NightlyWindow window, List<AgentJob> jobs, List<JobRun> runs) {
        Set<String> backupJobs = new HashSet<>();
        for (AgentJob j : jobs) {
            if (j.backupJob()) {
                backupJobs.add(key(j.jobId()));
            }
        }
        List<Overlap> out = new ArrayList<>();
        for (JobRun r : runs) {
            if (r.stepId() != 0 || backupJobs.contains(key(r.jobId()))) {
                continue;
            }
            Instant end = r.startedAt().plusSeconds(Math.max(0, r.durationSeconds()));
            Instant from = r.startedAt().isAfter(window.firstStart()) ? r.startedAt() : window.firstStart();
            Instant to = end.isBefore(window.lastFinish()) ? end : window.lastFinish();
            if (to.isAfter(from)) {
                out.add(new Overlap(r.jobId(), r.jobName(), from, to));
            }
        }
        return out;
    }

    /**
     * Every non-backup job's overlap with each of {@code windows} (in their order), largest slope first. A job renamed
     * in between is one job (by id), named as {@code jobs} names it now.
     */
    public static List<JobOverlap> trend(List<NightlyWindow> windows, List<AgentJob> jobs, List<JobRun> runs) {
        Map<String, AgentJob> byId = new HashMap<>();
        for (AgentJob j : jobs) {
            byId.put(key(j.jobId()), j);
        }
        Map<String, double[]> minutes = new LinkedHashMap<>();
        Map<String, String> names = new HashMap<>();
        for (int n = 0; n < windows.size(); n++) {
            for (Overlap o : of(windows.get(n), jobs, runs)) {
                String k = key(o.jobId());
                minutes.computeIfAbsent(k, x -> new double[windows.size()])[n] += o.minutes();
                names.put(k, o.jobName());
            }
        }
        List<LocalDate> mornings = windows.stream().map(NightlyWindow::morning).toList();
        List<JobOverlap> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : minutes.entrySet()) {
            double[] y = e.getValue();
            double slope = 0;
            if (windows.size() >= 2) {
                double[] x = new double[windows.size()];
                for (int n = 0; n < x.length; n++) {
                    x[n] = mornings.get(n).toEpochDay();
                }
                slope = TheilSen.fit(x, y).slope();
            }
            AgentJob job = byId.get(e.getKey());
            List<Double> per = new ArrayList<>();
            for (double m : y) {
                per.add(m);
            }
            out.add(new JobOverlap(job == null ? e.getKey() : job.jobId(), job == null ? names.get(e.getKey()) : job.name(),
                    job == null ? null : job.category(), mornings, per, slope));
        }
        out.sort(Comparator.comparingDouble(JobOverlap::slopeMinutesPerDay).reversed()
                .thenComparing(JobOverlap::jobName, Comparator.nullsLast(Comparator.naturalOrder())));
        return out;
    }

    /** Job ids compare ignoring case: SQL Server prints uniqueidentifiers in upper case, some tools in lower. */
    static String key(String jobId) {
        return jobId == null ? "" : jobId.toLowerCase(Locale.ROOT);
    }
}
