package io.qatwatch.agent.service;

/** How a service run ended; anything but {@link #STOPPED} makes the service exit non-zero so Windows recovery applies. */
public enum ServiceOutcome {
    /** Started, ran until asked to stop, stopped in time. */
    STOPPED(0),
    /** The agent refused to start (its error is logged). */
    START_FAILED(1),
    /** The agent did not finish starting within the start timeout. */
    START_TIMED_OUT(1),
    /** The agent failed while stopping; it may have lost its last outbox write. */
    STOP_FAILED(2),
    /** The agent did not finish stopping within the stop timeout. */
    STOP_TIMED_OUT(2);

    private final int exitCode;

    ServiceOutcome(int exitCode) {
        this.exitCode = exitCode;
    }

    /** The JVM exit code procrun reports to the Service Control Manager. */
    public int exitCode() {
        return exitCode;
    }
}
