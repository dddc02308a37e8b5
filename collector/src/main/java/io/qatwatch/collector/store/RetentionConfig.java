package io.qatwatch.collector.store;

import java.util.List;

/** How long backup history and report ids are kept ({@code retention:}). */
public record RetentionConfig(int backupDays, int reportIdDays) {

    public static final RetentionConfig DEFAULTS = new RetentionConfig(400, 30);

    /** This section with what the file left out taken from the defaults. */
    public RetentionConfig withDefaults() {
        return new RetentionConfig(backupDays == 0 ? DEFAULTS.backupDays : backupDays,
                reportIdDays == 0 ? DEFAULTS.reportIdDays : reportIdDays);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (backupDays < 1) {
            problems.add("retention.backupDays: must be at least 1, was " + backupDays);
        }
        if (reportIdDays < 1) {
            problems.add("retention.reportIdDays: must be at least 1, was " + reportIdDays);
        }
    }
}
