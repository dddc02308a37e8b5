package io.qatwatch.collector.pacing;

import java.util.concurrent.CancellationException;

/**
 * A {@link Pacer} that ends the stage's long work once the collector is stopping: after {@link #stop}, every
 * {@link #pace} throws {@link Stopped} instead of going on to the next instance or batch. A first evaluation of a
 * large fleet takes minutes; without this a stopped collector waited for it (or for its own stop timeouts) before it
 * closed the store, and a service manager's stop timeout could kill it first.
 */
public final class StoppablePacer implements Pacer {

    private final Pacer pacer;
    private volatile boolean stopped;

    public StoppablePacer(Pacer pacer) {
        this.pacer = pacer;
    }

    /** From now on, {@link #pace} throws; the work in hand ends at its next unit. */
    public void stop() {
        stopped = true;
    }

    public boolean stopped() {
        return stopped;
    }

    @Override
    public void pace() {
        if (stopped) {
            throw new Stopped();
        }
        pacer.pace();
    }

    /** The stage's work ended early because the collector is stopping: not a failure. */
    public static final class Stopped extends CancellationException {
        private static final long serialVersionUID = 1L;

        public Stopped() {
            super("the collector is stopping");
        }
    }
}
