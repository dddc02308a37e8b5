package io.qatwatch.collector.chain;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One replica's backups of one database as far as its restore plan needs them, taken in store order: its newest full and
 * newest copy-only full, its newest differential, and its log backups as {@link ChainLink}s, consecutive ones merged, so
 * that a healthy database costs a few objects however many log backups it has. Links that end before the full the logs
 * name as theirs ({@code database_backup_lsn}) are dropped. With {@code everyLog}, each log stays a link of its own (the
 * restore plan API lists every file). Not thread-safe.
 */
public final class LogChain {

    private final boolean everyLog;
    private ChainBackup full;
    private ChainBackup copyOnlyFull;
    private ChainBackup differential;
    private final List<ChainLink> links = new ArrayList<>();
    private BigInteger base;
    /** A full or differential came since the last log: the next log starts a link of its own, where plans start. */
    private boolean sealed;
    private long version;
    private Object memoKey;
    private Object memo;
    private long memoVersion = -1;

    public LogChain() {
        this(false);
    }

    public LogChain(boolean everyLog) {
        this.everyLog = everyLog;
    }

    /** Takes {@code b}, the replica's next backup of the database in store order. */
    public void add(ChainBackup b) {
        version++;
        switch (b.kind()) {
            case ChainBackup.FULL -> {
                if (b.discarded()) {
                    return;
                }
                if (b.copyOnly()) {
                    copyOnlyFull = b;
                } else {
                    full = b;
                }
                sealed = true;
            }
            case ChainBackup.DIFFERENTIAL -> {
                if (!b.discarded()) {
                    differential = b;
                    sealed = true;
                }
            }
            default -> addLog(b);
        }
    }

    private void addLog(ChainBackup log) {
        BigInteger named = log.databaseBackupLsn();
        if (named != null && named.signum() > 0 && (base == null || named.compareTo(base) > 0)) {
            base = named;
            // what ends before the full these logs are based on is not needed to restore from it or from a later one
            links.removeIf(l -> l.lastLsn().compareTo(named) < 0);
        }
        int n = links.size();
        ChainLink tail = n == 0 ? null : links.get(n - 1);
        // a plan starts after a full or differential: where one came (here, or on another replica, which the logs' new
        // database_backup_lsn shows) a link ends, so that a plan counts its logs exactly
        if (!everyLog && !sealed && tail != null && tail.broken() == null && !log.discarded()
                && tail.lastLsn().equals(log.firstLsn()) && tail.last().place().equals(log.place())
                && java.util.Objects.equals(tail.last().databaseBackupLsn(), log.databaseBackupLsn())
                // one algorithm a link, so that a restore estimate takes each log at its own algorithm's speed
                && java.util.Objects.equals(tail.last().algorithm(), log.algorithm())) {
            links.set(n - 1, tail.extend(log));
        } else {
            links.add(ChainLink.of(log));
            n++;
        }
        sealed = false;
        // one log elsewhere between two that went to the same place: another tool took it
        if (n >= 3) {
            ChainLink before = links.get(n - 3);
            ChainLink between = links.get(n - 2);
            ChainLink after = links.get(n - 1);
            if (between.broken() == null && before.broken() == null && after.broken() == null && between.logs() == 1
                    && before.lastLsn().equals(between.firstLsn()) && between.lastLsn().equals(after.firstLsn())
                    && before.last().place().equals(after.first().place())
                    && !between.first().place().equals(before.last().place())) {
                links.set(n - 2, between.brokenBy(ChainLink.OTHER_TOOL));
            }
        }
    }

    public ChainBackup full() {
        return full;
    }

    public ChainBackup copyOnlyFull() {
        return copyOnlyFull;
    }

    public ChainBackup differential() {
        return differential;
    }

    /** The log links, in the order taken. */
    public List<ChainLink> links() {
        return links;
    }

    /** Whether it holds anything a plan can start from or chain with. */
    public boolean isEmpty() {
        return full == null && copyOnlyFull == null && differential == null && links.isEmpty();
    }

    /**
     * What {@code compute} gives for {@code key}, computed again only when a backup was added since or the key changed:
     * a database with one copy keeps its verdict while its backups stay the same.
     */
    @SuppressWarnings("unchecked")
    public <T> T memo(Object key, Supplier<T> compute) {
        if (memoVersion != version || !key.equals(memoKey)) {
            memo = compute.get();
            memoKey = key;
            memoVersion = version;
        }
        return (T) memo;
    }
}
