package io.qatwatch.collector.chain;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;

/**
 * How a database restores now: the full, the differential on it, the log backups to the latest point they reach, and
 * where the chain breaks. Each backup says its host and instance ({@link ChainBackup#scope()}) and its file.
 *
 * @param full          the full to restore first
 * @param differential  the differential restored on it; null when none applies
 * @param logs          the log links after them, in order up to the break or the newest log
 * @param latestPoint   the latest point in time the plan restores to (the finish of its last backup)
 * @param latestLsn     the {@code last_lsn} of its last backup
 * @param broken        where the chain breaks after that point; null when every log backup since is in the plan
 * @param newestLog     the newest log backup of the database on any replica (null when none): what a whole chain reaches
 */
public record RestorePlan(ChainBackup full, ChainBackup differential, List<ChainLink> logs, Instant latestPoint,
                          BigInteger latestLsn, ChainBreak broken, ChainBackup newestLog) {

    /** Files to restore, in order: the full, the differential, each log. */
    public int files() {
        int n = 1 + (differential == null ? 0 : 1);
        for (ChainLink l : logs) {
            n += l.logs();
        }
        return n;
    }

    /** The log backups of the plan. */
    public int logCount() {
        int n = 0;
        for (ChainLink l : logs) {
            n += l.logs();
        }
        return n;
    }

    /** The plan in one line: "full of T on host/instance (file) + differential of T + 3 log backups to T". */
    public String head() {
        StringBuilder s = new StringBuilder(full.kindName()).append(" of ").append(full.finishedAt()).append(" on ")
                .append(full.scope()).append(" (").append(full.file()).append(')');
        if (differential != null) {
            s.append(" + differential of ").append(differential.finishedAt()).append(" on ").append(differential.scope())
                    .append(" (").append(differential.file()).append(')');
        }
        int n = logCount();
        if (n > 0) {
            s.append(" + ").append(n).append(n == 1 ? " log backup" : " log backups");
        }
        return s.append(" to ").append(latestPoint).toString();
    }

    /** Whether every log backup since the plan's start is in it. */
    public boolean whole() {
        return broken == null;
    }

    /** Bytes to read: every backup of the plan. */
    public long bytes() {
        long n = full.sizeBytes() + (differential == null ? 0 : differential.sizeBytes());
        for (ChainLink l : logs) {
            n += l.bytes();
        }
        return n;
    }

    /**
     * Where a chain breaks.
     *
     * @param kind   {@link #GAP} (the next log does not start where the last one ended), {@link ChainLink#NUL} or
     *               {@link ChainLink#OTHER_TOOL} (the chain passes through a log nothing restores from the jobs' files)
     * @param before the last backup the plan restores
     * @param via    the log to NUL or by another tool; null for a gap
     * @param after  the next log backup after the break; null when none yet
     * @param cause  the likely cause, as a DBA would say it
     */
    public record ChainBreak(String kind, ChainBackup before, ChainBackup via, ChainBackup after, String cause) {

        public static final String GAP = "GAP";
    }
}
