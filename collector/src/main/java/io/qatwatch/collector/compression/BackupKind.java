package io.qatwatch.collector.compression;

/**
 * The kinds of backup compared: fulls (copy-only fulls with them: a {@code COPY_ONLY} backup with another
 * algorithm is how DBAs test one) and differentials. Logs are left out: their duration is mostly fixed cost.
 */
public enum BackupKind {
    FULL("full"),
    DIFFERENTIAL("differential");

    private final String label;

    BackupKind(String label) {
        this.label = label;
    }

    /** The API's {@code backupType}: {@code full} or {@code differential}. */
    public String label() {
        return label;
    }

    /** The kind of an msdb {@code backupset.type}: D full, I differential; null for every other type. */
    public static BackupKind of(String type) {
        if ("D".equals(type)) {
            return FULL;
        }
        return "I".equals(type) ? DIFFERENTIAL : null;
    }
}
