package io.qatwatch.collector.window;

/**
 * Which backups make up a nightly window and how far back history is read.
 *
 * @param includeLog      count log backups in the window (off: a 15-minute log job would span every night)
 * @param includeCopyOnly count copy-only backups (off: ad-hoc copies are not the schedule); copy-only fulls
 *                        of a database on an availability-group secondary always count, since that is the
 *                        only kind of full a secondary can take
 * @param lookbackDays    days of backup history the analysis reads
 */
public record WindowSettings(Boolean includeLog, Boolean includeCopyOnly, Integer lookbackDays) {

    /** The defaults: fulls and differentials only, 60 days of history. */
    public static final WindowSettings DEFAULTS = new WindowSettings(false, false, 60);

    public WindowSettings {
        includeLog = includeLog == null ? Boolean.FALSE : includeLog;
        includeCopyOnly = includeCopyOnly == null ? Boolean.FALSE : includeCopyOnly;
        lookbackDays = lookbackDays == null ? 60 : lookbackDays;
    }
}
