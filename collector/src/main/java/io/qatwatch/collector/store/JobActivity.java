package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobRun;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.time.Instant;
import java.util.List;

/**
 * What an instance's SQL Server Agent and Ola Hallengren's CommandLog said, as the store keeps it: the latest jobs
 * section (with whether Agent could be read), and the job runs, CommandLog backup rows and restores of the lookback
 * period, each list oldest first.
 *
 * @param jobsStatus AVAILABLE, NO_AGENT or NO_PERMISSION ({@code SqlInstanceSnapshot.JOBS_*}); null when never read
 * @param runs       job outcomes (step 0) and steps, by start, then {@code instance_id}
 * @param commandLog CommandLog rows by start, then id
 * @param restores   restores this instance performed, by time, then {@code restore_history_id}
 */
public record JobActivity(String jobsStatus, List<AgentJob> jobs, List<JobRun> runs, List<CommandLogEntry> commandLog,
                          List<RestoreRecord> restores) {

    /** Nothing known: an agent before issue 15, or an instance never read. */
    public static final JobActivity NONE = new JobActivity(null, List.of(), List.of(), List.of(), List.of());

    public JobActivity {
        jobs = jobs == null ? List.of() : List.copyOf(jobs);
        runs = runs == null ? List.of() : List.copyOf(runs);
        commandLog = commandLog == null ? List.of() : List.copyOf(commandLog);
        restores = restores == null ? List.of() : List.copyOf(restores);
    }

    /**
     * The same activity without the rows that started (runs, CommandLog) or happened (restores) before {@code since}:
     * what the store would return for that period. Itself when nothing is that old.
     */
    public JobActivity since(Instant since) {
        boolean old = !runs.isEmpty() && runs.get(0).startedAt().isBefore(since)
                || !commandLog.isEmpty() && commandLog.get(0).startedAt().isBefore(since)
                || !restores.isEmpty() && restores.get(0).restoredAt().isBefore(since);
        if (!old) {
            return this;
        }
        return new JobActivity(jobsStatus, jobs,
                runs.stream().filter(r -> !r.startedAt().isBefore(since)).toList(),
                commandLog.stream().filter(c -> !c.startedAt().isBefore(since)).toList(),
                restores.stream().filter(r -> !r.restoredAt().isBefore(since)).toList());
    }
}
