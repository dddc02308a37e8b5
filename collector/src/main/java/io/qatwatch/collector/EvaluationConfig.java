package io.qatwatch.collector;

import java.util.List;

/**
 * How often the alert stage evaluates the fleet, and (several collectors on one PostgreSQL store) how long a
 * collector's lease on a slice of hosts lasts ({@code evaluation:}).
 *
 * @param everySeconds the evaluation interval
 * @param leaseSeconds a lease not renewed for this long expires; the others take its slices on their renewal timer
 *                     ({@link #renewMillis()}), within {@code leaseSeconds + leaseSeconds/3}, and evaluate them at
 *                     their next evaluation after that
 * @param busyCoreShare while reports are arriving and the machine has no core to spare, the stage's long work (rebuilds,
 *                     a start's reads, saving thousands of alerts) is held to what ingest leaves of 90 % of the cores,
 *                     but never less than this share of one core ({@link io.qatwatch.collector.pacing.IngestFirstPacer});
 *                     a value at or above the machine's cores turns that off
 */
public record EvaluationConfig(int everySeconds, int leaseSeconds, double busyCoreShare) {

    public static final EvaluationConfig DEFAULTS = new EvaluationConfig(60, 30, 0.25);

    /** An interval and lease with the default share. */
    public EvaluationConfig(int everySeconds, int leaseSeconds) {
        this(everySeconds, leaseSeconds, DEFAULTS.busyCoreShare);
    }

    /** This section with what the file left out taken from the defaults. */
    public EvaluationConfig withDefaults() {
        return new EvaluationConfig(everySeconds == 0 ? DEFAULTS.everySeconds : everySeconds,
                leaseSeconds == 0 ? Math.max(1, Math.min(DEFAULTS.leaseSeconds, (everySeconds == 0 ? DEFAULTS.everySeconds
                        : everySeconds) / 2)) : leaseSeconds, busyCoreShare == 0 ? DEFAULTS.busyCoreShare : busyCoreShare);
    }

    /** How often a collector renews its leases: three times a lease, so one late renewal loses nothing. */
    public long renewMillis() {
        return Math.max(250, leaseSeconds * 1000L / 3);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (everySeconds < 1 || everySeconds > 3600) {
            problems.add("evaluation.everySeconds: must be 1..3600, was " + everySeconds);
        }
        if (leaseSeconds < 1 || leaseSeconds >= everySeconds) {
            problems.add("evaluation.leaseSeconds: must be at least 1 and less than evaluation.everySeconds ("
                    + everySeconds + "), so a dead collector's hosts are taken over within two evaluations; was "
                    + leaseSeconds);
        }
        if (!(busyCoreShare >= 0.05 && busyCoreShare <= 1024)) {
            problems.add("evaluation.busyCoreShare: must be 0.05..1024 (a share of one core; at or above the machine's "
                    + "cores the stage is never held back), was " + busyCoreShare);
        }
    }
}
