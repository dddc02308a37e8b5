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
 */
public record EvaluationConfig(int everySeconds, int leaseSeconds) {

    public static final EvaluationConfig DEFAULTS = new EvaluationConfig(60, 30);

    /** This section with what the file left out taken from the defaults. */
    public EvaluationConfig withDefaults() {
        return new EvaluationConfig(everySeconds == 0 ? DEFAULTS.everySeconds : everySeconds,
                leaseSeconds == 0 ? Math.max(1, Math.min(DEFAULTS.leaseSeconds, (everySeconds == 0 ? DEFAULTS.everySeconds
                        : everySeconds) / 2)) : leaseSeconds);
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
    }
}
