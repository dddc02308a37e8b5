package io.qatwatch.collector.window;

/**
 * What kind of night a window was, so that trends compare like with like: a weekly full night is
 * compared with the previous weekly full nights, never with the differential nights between them.
 */
public enum NightKind {
    /** Fulls of databases holding at least half of the instance's full-backup bytes ran this night. */
    FULL,
    /** Mostly differentials (and fulls of small databases). */
    DIFFERENTIAL
}
