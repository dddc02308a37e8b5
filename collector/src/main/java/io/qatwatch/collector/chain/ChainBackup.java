package io.qatwatch.collector.chain;

import io.qatwatch.collector.compression.Method;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * One backup as a log chain needs it: where it ran ({@code host/instance}), its kind, its LSNs and its file.
 *
 * @param kind               {@link #FULL} (D, F, P), {@link #DIFFERENTIAL} (I, G, Q) or {@link #LOG} (L)
 * @param sizeBytes          bytes written (compressed when compressed)
 * @param file               {@code backupmediafamily.physical_device_name} of its first media family, else its target
 * @param differentialBaseLsn the base full's {@code checkpoint_lsn} a differential names; null for others
 * @param backupSetUuid      {@code backupset.backup_set_uuid} of a full; null for others and from agents that did not read it
 * @param differentialBaseGuid the base full's {@code backup_set_uuid} a differential names
 *                           ({@code differential_base_guid}); null for others and from older agents
 * @param algorithm          how it was compressed ({@link Method#algorithm()}: {@code NONE}, {@code MS_XPRESS},
 *                           {@code QAT_DEFLATE}, {@code ZSTD}), so a restore estimate takes each backup's own; null when
 *                           not known
 * @param dataBytes          its {@code backup_size}: the data it holds, what restore and backup speeds are measured in
 */
public record ChainBackup(String scope, long backupSetId, char kind, boolean copyOnly, Instant startedAt, Instant finishedAt,
                          long sizeBytes, String target, String deviceType, String file, String recoveryModel,
                          boolean beginsLogChain, BigInteger firstLsn, BigInteger lastLsn, BigInteger checkpointLsn,
                          BigInteger databaseBackupLsn, BigInteger differentialBaseLsn, String backupSetUuid,
                          String differentialBaseGuid, String algorithm, long dataBytes) {

    /** Without its compression: algorithm unknown, its data as many bytes as it wrote. */
    public ChainBackup(String scope, long backupSetId, char kind, boolean copyOnly, Instant startedAt, Instant finishedAt,
                       long sizeBytes, String target, String deviceType, String file, String recoveryModel,
                       boolean beginsLogChain, BigInteger firstLsn, BigInteger lastLsn, BigInteger checkpointLsn,
                       BigInteger databaseBackupLsn, BigInteger differentialBaseLsn, String backupSetUuid,
                       String differentialBaseGuid) {
        this(scope, backupSetId, kind, copyOnly, startedAt, finishedAt, sizeBytes, target, deviceType, file, recoveryModel,
                beginsLogChain, firstLsn, lastLsn, checkpointLsn, databaseBackupLsn, differentialBaseLsn, backupSetUuid,
                differentialBaseGuid, null, sizeBytes);
    }

    /** Without the backup set's and the differential base's GUIDs (agents before they were read). */
    public ChainBackup(String scope, long backupSetId, char kind, boolean copyOnly, Instant startedAt, Instant finishedAt,
                       long sizeBytes, String target, String deviceType, String file, String recoveryModel,
                       boolean beginsLogChain, BigInteger firstLsn, BigInteger lastLsn, BigInteger checkpointLsn,
                       BigInteger databaseBackupLsn, BigInteger differentialBaseLsn) {
        this(scope, backupSetId, kind, copyOnly, startedAt, finishedAt, sizeBytes, target, deviceType, file, recoveryModel,
                beginsLogChain, firstLsn, lastLsn, checkpointLsn, databaseBackupLsn, differentialBaseLsn, null, null);
    }

    public static final char FULL = 'D';
    public static final char DIFFERENTIAL = 'I';
    public static final char LOG = 'L';

    /** {@code b} as a chain sees it; null when it carries no LSNs (agents before issue 31) or is of no chain's kind. */
    public static ChainBackup of(String scope, BackupRecord b) {
        return of(scope, b, UnaryOperator.identity());
    }

    /** As {@link #of(String, BackupRecord)}, its scope, device type, target and recovery model shared through {@code canon}. */
    public static ChainBackup of(String scope, BackupRecord b, UnaryOperator<String> canon) {
        if (b.firstLsn() == null || b.lastLsn() == null || b.type() == null || b.type().length() != 1
                || b.finishedAt() == null) {
            return null;
        }
        char kind = switch (b.type().charAt(0)) {
            case 'D', 'F', 'P' -> FULL;
            case 'I', 'G', 'Q' -> DIFFERENTIAL;
            case 'L' -> LOG;
            default -> 0;
        };
        if (kind == 0) {
            return null;
        }
        String file = b.physicalDeviceName() != null ? b.physicalDeviceName() : b.target();
        long size = b.compressedSizeBytes() != null ? b.compressedSizeBytes() : b.backupSizeBytes();
        return new ChainBackup(canon.apply(scope), b.backupSetId(), kind, b.copyOnly(), b.startedAt(), b.finishedAt(), size,
                canon.apply(b.target()), canon.apply(b.deviceType()), file, canon.apply(b.recoveryModel()), Boolean.TRUE.equals(b.beginsLogChain()), lsn(b.firstLsn()),
                lsn(b.lastLsn()), lsn(b.checkpointLsn()), lsn(b.databaseBackupLsn()), lsn(b.differentialBaseLsn()),
                // only a full is a base and only a differential names one: logs, the most of them, keep neither GUID
                kind == FULL ? guid(b.backupSetUuid()) : null, kind == DIFFERENTIAL ? guid(b.differentialBaseGuid()) : null,
                canon.apply(Method.of(b, null).algorithm()), b.backupSizeBytes());
    }

    private static String guid(String g) {
        return g == null || g.isBlank() ? null : g.trim().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether this differential is based on {@code full}: the base GUID it names is the full's {@code backup_set_uuid}
     * when both are known (the backup set's identity, "backupset" page), else its base LSN is the full's checkpoint LSN.
     */
    public boolean basedOn(ChainBackup full) {
        if (differentialBaseGuid != null && full.backupSetUuid() != null) {
            return differentialBaseGuid.equals(full.backupSetUuid());
        }
        BigInteger base = differentialBaseLsn != null ? differentialBaseLsn : databaseBackupLsn;
        return base != null && base.equals(full.checkpointLsn());
    }

    /** An LSN's digits as a number; null for null or anything that is not decimal digits. */
    public static BigInteger lsn(String digits) {
        if (digits == null || digits.isEmpty() || digits.length() > 40) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        return new BigInteger(digits);
    }

    /** Written to NUL: the bytes were discarded, nothing restores from it. */
    public boolean discarded() {
        return "NUL".equalsIgnoreCase(target) || "NUL".equalsIgnoreCase(file) || "NUL:".equalsIgnoreCase(file);
    }

    /** Taken while the database was in SIMPLE recovery (msdb's {@code recovery_model}). */
    public boolean simpleRecovery() {
        return recoveryModel != null && recoveryModel.trim().toUpperCase(Locale.ROOT).equals("SIMPLE");
    }

    /**
     * Where it went, as far as telling one tool's backups from another's: the device type and the folder of its file
     * (a virtual device's name is a GUID per backup, so only the device type counts there).
     */
    String place() {
        String device = deviceType == null ? "" : deviceType;
        if ("VIRTUAL_DEVICE".equals(device) || file == null) {
            return device;
        }
        int slash = Math.max(file.lastIndexOf('\\'), file.lastIndexOf('/'));
        return device + "|" + (slash < 0 ? "" : file.substring(0, slash).toLowerCase(Locale.ROOT));
    }

    /** {@code FULL}, {@code COPY_ONLY full}, {@code differential} or {@code log}, as the texts name it. */
    public String kindName() {
        return switch (kind) {
            case FULL -> copyOnly ? "copy-only full" : "full";
            case DIFFERENTIAL -> "differential";
            default -> "log";
        };
    }

    /** "log of 2026-11-29T17:05Z on host/instance (file)": how alert texts name a backup. */
    public String describe() {
        return kindName() + " backup finished " + finishedAt + " on " + scope + " (" + file + ")";
    }
}
