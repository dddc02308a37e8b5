package io.qatwatch.collector.compression;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a backup was compressed: the algorithm, its level where known, and for QAT_DEFLATE the accelerator's
 * mode when the backup ran (HARDWARE, SOFTWARE). msdb records no level, so {@code level} stays null until an
 * agent reports one.
 *
 * @param algorithm {@code MS_XPRESS}, {@code QAT_DEFLATE}, {@code ZSTD}, or {@code NONE} for an uncompressed backup
 * @param level     e.g. {@code LOW}, {@code MEDIUM}, {@code HIGH} (ZSTD); null when not known
 * @param mode      QAT_DEFLATE only: {@code sys.dm_server_accelerator_status.mode_desc} at the backup's start; null when unknown
 */
public record Method(String algorithm, String level, String mode) {

    public static final String MS_XPRESS = "MS_XPRESS";
    public static final String QAT_DEFLATE = "QAT_DEFLATE";
    public static final String NONE = "NONE";

    /** The methods nearly every backup has, shared: each of a fleet's series and comparisons names one. */
    private static final List<Method> COMMON = List.of(new Method(NONE, null, null),
            new Method(MS_XPRESS, null, null), new Method(QAT_DEFLATE, null, null), new Method(QAT_DEFLATE, null, "HARDWARE"),
            new Method(QAT_DEFLATE, null, "SOFTWARE"));

    /** {@code QAT_DEFLATE (HARDWARE)}, {@code ZSTD MEDIUM}, {@code MS_XPRESS}: how the API and alerts name it. */
    public String label() {
        return algorithm + (level == null ? "" : " " + level) + (mode == null ? "" : " (" + mode + ")");
    }

    public boolean isQat() {
        return QAT_DEFLATE.equals(algorithm);
    }

    /**
     * The method of {@code b}, with {@code qatMode} the QAT mode in force when it started: NONE when the backup
     * is not smaller than its data; MS_XPRESS for a compressed backup from a server older than 2022, which
     * names no algorithm (it was the only one); else msdb's {@code compression_algorithm}, upper-cased.
     */
    public static Method of(BackupRecord b, String qatMode) {
        Long compressed = b.compressedSizeBytes();
        if (compressed == null || compressed >= b.backupSizeBytes()) {
            return COMMON.get(0);
        }
        String algorithm = b.compressionAlgorithm() == null || b.compressionAlgorithm().isBlank() ? MS_XPRESS
                : b.compressionAlgorithm().trim().toUpperCase(Locale.ROOT);
        return shared(algorithm, null, QAT_DEFLATE.equals(algorithm) ? qatMode : null);
    }

    /** This method: one of the common ones when it is one (the same object), else a new one. */
    public static Method shared(String algorithm, String level, String mode) {
        for (Method m : COMMON) {
            if (Objects.equals(m.algorithm, algorithm) && Objects.equals(m.level, level) && Objects.equals(m.mode, mode)) {
                return m;
            }
        }
        return new Method(algorithm, level, mode);
    }
}
