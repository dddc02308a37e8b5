package io.qatwatch.collector.chain;

import java.math.BigInteger;

/**
 * Consecutive log backups of one replica that chain ({@code first_lsn} of each equals {@code last_lsn} of the one before),
 * went to the same place and were compressed the same way, kept as their first and last backup; or one log backup that breaks a chain though its
 * LSNs chain: written to NUL, or taken by another tool between two of the jobs' logs.
 *
 * @param logs  how many log backups it stands for
 * @param bytes their bytes together, as written
 * @param dataBytes their {@code backup_size} together
 * @param broken null, {@link #NUL} or {@link #OTHER_TOOL}
 */
public record ChainLink(ChainBackup first, ChainBackup last, int logs, long bytes, long dataBytes, String broken) {

    /** A log backup written to NUL: its log records are gone. */
    public static final String NUL = "NUL";
    /** A log backup another tool took (another device type or folder than the logs on both sides of it). */
    public static final String OTHER_TOOL = "OTHER_TOOL";

    static ChainLink of(ChainBackup log) {
        return new ChainLink(log, log, 1, log.sizeBytes(), log.dataBytes(), log.discarded() ? NUL : null);
    }

    public BigInteger firstLsn() {
        return first.firstLsn();
    }

    public BigInteger lastLsn() {
        return last.lastLsn();
    }

    /** This link with {@code log}, which chains to its end, appended. */
    ChainLink extend(ChainBackup log) {
        return new ChainLink(first, log, logs + 1, bytes + log.sizeBytes(), dataBytes + log.dataBytes(), null);
    }

    ChainLink brokenBy(String cause) {
        return new ChainLink(first, last, logs, bytes, dataBytes, cause);
    }
}
