package io.qatwatch.agent.probe.sqlserver;

import java.time.Instant;

/**
 * The SQL Server process's CPU on this host ({@code sqlservr}, Windows {@code sqlservr.exe}), read by process id
 * ({@code SERVERPROPERTY('ProcessID')}): the second, independent CPU signal of a backup (issue 30). Called off the event
 * loop, and only at polls that see a backup or restore run (and the two polls after one ended).
 */
public interface SqlServerProcess {

    /** Reads nothing: no host signal (the one-shot probe, or a test of the request signal alone). */
    SqlServerProcess NONE = (machineName, processId) -> Sample.unavailable("the host's process CPU is not read");

    /**
     * The process's CPU now.
     *
     * @param machineName {@code SERVERPROPERTY('MachineName')}: the process can be read only when that is this host
     * @param processId   {@code SERVERPROPERTY('ProcessID')}
     */
    Sample sample(String machineName, long processId);

    /**
     * One reading: the process's kernel + user CPU of every thread since it started, or why there is none.
     *
     * @param cpuMillis  kernel + user time of the process, every thread (ms); null when not read
     * @param startedAt  when the process started; null when not known
     * @param why        why there is no reading, in a sentence; null when read
     */
    record Sample(long processId, Long cpuMillis, Instant startedAt, String why) {

        static Sample unavailable(String why) {
            return new Sample(0, null, null, why);
        }

        boolean read() {
            return cpuMillis != null;
        }
    }
}
