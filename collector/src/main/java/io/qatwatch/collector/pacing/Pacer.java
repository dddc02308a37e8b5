package io.qatwatch.collector.pacing;

/**
 * Where the alert stage's long work (an instance rebuilt from its rows, a batch of histories read, a chunk of alerts
 * saved) may be held back so that reports never queue behind it. The stage's threads call {@link #pace} between two
 * units of work; it returns at once or after a short sleep.
 */
@FunctionalInterface
public interface Pacer {

    /** Never holds anything back (tests, tools, a stage without ingest). */
    Pacer NONE = () -> { };

    /** Called between two units of the stage's work, on the stage's own threads (never an event loop); may sleep. */
    void pace();
}
