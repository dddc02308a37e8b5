package io.qatwatch.collector.chain;

import io.qatwatch.collector.chain.RestorePlan.ChainBreak;
import java.math.BigInteger;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The restore plan of a database from its backups on every replica ({@link LogChain}s): the newest full, the newest
 * differential based on it, then each log that holds the LSN reached so far (its {@code first_lsn} at or before it, its
 * {@code last_lsn} after it). Two fulls are tried, the newest of all and the newest that is not copy-only (a copy-only
 * full is never a differential base, "Copy-only backups"); the plan that reaches further wins, the regular full's on a
 * tie (the plan the jobs' schedule intends). Pure.
 */
public final class RestorePlanner {

    private RestorePlanner() {
    }

    /**
     * The plan of one database from each replica's backups of it ({@code host/instance} to its backups in store order,
     * as the store reads them): every log backup a step of its own, as the restore plan API lists them. Backups without
     * LSNs (agents before issue 31) are left out; empty when no replica holds a full.
     */
    public static Optional<RestorePlan> ofBackups(Map<String, List<BackupRecord>> byReplica) {
        List<LogChain> chains = new ArrayList<>();
        byReplica.forEach((scope, backups) -> {
            LogChain c = new LogChain(true);
            for (BackupRecord b : backups) {
                ChainBackup cb = ChainBackup.of(scope, b);
                if (cb != null) {
                    c.add(cb);
                }
            }
            chains.add(c);
        });
        return plan(chains);
    }

    /** The plan over every replica's chain of one database; empty when no replica holds a full. */
    public static Optional<RestorePlan> plan(List<LogChain> replicas) {
        ChainBackup newest = null;
        ChainBackup newestBase = null;
        ChainBackup newestLog = null;
        List<ChainLink> links = new ArrayList<>();
        for (LogChain c : replicas) {
            newest = newer(newest, c.full());
            newest = newer(newest, c.copyOnlyFull());
            newestBase = newer(newestBase, c.full());
            links.addAll(c.links());
            for (ChainLink l : c.links()) {
                newestLog = newer(newestLog, l.last());
            }
        }
        if (newest == null) {
            return Optional.empty();
        }
        links.sort((a, b) -> a.firstLsn().compareTo(b.firstLsn()));
        RestorePlan best = from(newest, replicas, links, newestLog);
        if (newestBase != null && newestBase != newest) {
            RestorePlan other = from(newestBase, replicas, links, newestLog);
            // as far or further: the regular full's plan, the one the jobs' schedule intends
            if (other.latestLsn().compareTo(best.latestLsn()) >= 0) {
                best = other;
            }
        }
        return Optional.of(best);
    }

    private static ChainBackup newer(ChainBackup a, ChainBackup b) {
        return b == null || a != null && !b.finishedAt().isAfter(a.finishedAt()) ? a : b;
    }

    /** The newest differential of any replica whose base is {@code full}, finished after it. */
    static ChainBackup differentialOn(ChainBackup full, List<LogChain> replicas) {
        ChainBackup best = null;
        if (full.copyOnly() || full.checkpointLsn() == null) {
            return null;
        }
        for (LogChain c : replicas) {
            ChainBackup d = c.differential();
            if (d != null && d.basedOn(full) && d.finishedAt().isAfter(full.finishedAt())) {
                best = newer(best, d);
            }
        }
        return best;
    }

    /** The base a differential names: its {@code differential_base_lsn}, else the latest full's LSN it was taken after. */
    public static BigInteger baseOf(ChainBackup differential) {
        return differential.differentialBaseLsn() != null ? differential.differentialBaseLsn() : differential.databaseBackupLsn();
    }

    private static RestorePlan from(ChainBackup full, List<LogChain> replicas, List<ChainLink> links, ChainBackup newestLog) {
        ChainBackup diff = differentialOn(full, replicas);
        ChainBackup at = diff != null ? diff : full;
        BigInteger reached = at.lastLsn();
        List<ChainLink> plan = new ArrayList<>();
        ChainBreak broken = null;
        while (true) {
            ChainLink next = null;
            ChainLink breaking = null;
            ChainLink later = null;
            for (ChainLink l : links) {
                if (l.firstLsn().compareTo(reached) <= 0 && l.lastLsn().compareTo(reached) > 0) {
                    if (l.broken() == null) {
                        if (next == null || l.lastLsn().compareTo(next.lastLsn()) > 0) {
                            next = l;
                        }
                    } else if (breaking == null) {
                        breaking = l;
                    }
                } else if (l.firstLsn().compareTo(reached) > 0 && later == null) {
                    later = l;
                }
            }
            if (next != null) {
                plan.add(next);
                at = next.last();
                reached = next.lastLsn();
                continue;
            }
            if (breaking != null) {
                ChainLink resumes = startingAt(links, breaking.lastLsn());
                broken = new ChainBreak(breaking.broken(), at, breaking.first(), resumes == null ? null : resumes.first(),
                        ChainLink.NUL.equals(breaking.broken())
                                ? "a log backup written to NUL (BACKUP LOG ... TO DISK = 'NUL'): its log records were discarded"
                                : "a log backup taken by another tool (" + breaking.first().deviceType() + " "
                                        + breaking.first().file() + ") between two of the jobs' logs: its file is not where they write theirs");
            } else if (later != null) {
                broken = new ChainBreak(ChainBreak.GAP, at, null, later.first(), gapCause(at, later.first(), replicas));
            }
            break;
        }
        return new RestorePlan(full, diff, List.copyOf(plan), at.finishedAt(), reached, broken, newestLog);
    }

    private static ChainLink startingAt(List<ChainLink> links, BigInteger lsn) {
        for (ChainLink l : links) {
            if (l.broken() == null && l.firstLsn().compareTo(lsn) <= 0 && l.lastLsn().compareTo(lsn) > 0) {
                return l;
            }
        }
        return null;
    }

    private static String gapCause(ChainBackup before, ChainBackup after, List<LogChain> replicas) {
        if (after.beginsLogChain() || after.simpleRecovery()) {
            return "a switch to SIMPLE recovery: the log backup after the gap begins a new log chain (begins_log_chain)";
        }
        for (LogChain c : replicas) {
            for (ChainBackup b : new ChainBackup[] {c.full(), c.copyOnlyFull(), c.differential()}) {
                if (b != null && b.simpleRecovery() && b.finishedAt().isAfter(before.finishedAt())
                        && b.finishedAt().isBefore(after.finishedAt())) {
                    return "a switch to SIMPLE recovery: the " + b.kindName() + " backup of " + b.finishedAt() + " on "
                            + b.scope() + " was taken in SIMPLE";
                }
            }
        }
        return "a log backup that msdb does not hold on any replica qatwatch watches: taken on another replica, by a tool "
                + "that records no history, or its history deleted";
    }
}
