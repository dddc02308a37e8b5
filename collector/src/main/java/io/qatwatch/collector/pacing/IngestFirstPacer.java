package io.qatwatch.collector.pacing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Holds the alert stage back while reports are arriving and the machine has no core to spare, so a large rebuild (a
 * start, a thousand new agents) never makes reports queue behind it (issue 33). Time is cut into windows of
 * {@value #WINDOW_MILLIS} ms. At the end of each, it works out what the rest of the machine used (the machine's busy
 * CPU less the stage's own threads', smoothed) and, if a report was accepted within the last second, lets the stage
 * use in the next window what is left of {@value #HEADROOM} of the machine's cores, but never less than
 * {@code busyCoreShare} of one core; a stage thread that has used its window's share sleeps to the window's end. With
 * no report arriving, or cores to spare, nothing is held back: a quiet collector evaluates at full speed. The stage's
 * threads are those that call {@link #pace} (the evaluation's worker and the start's read-ahead).
 */
public final class IngestFirstPacer implements Pacer {

    static final long WINDOW_MILLIS = 100;
    private static final long WINDOW = TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS);
    /** The share of the machine's cores the stage may bring the machine to while ingest is busy. */
    static final double HEADROOM = 0.9;
    /** Ingest counts as busy this long after the last report was accepted. */
    private static final long INGEST_QUIET = TimeUnit.SECONDS.toNanos(1);

    /** How the pacer reads time and CPU and sleeps: the JVM's, or a test's. */
    interface Clocks {
        long nanoTime();

        /** The CPU time of the thread with this id, or -1 when it has ended. */
        long threadCpu(long threadId);

        void sleep(long nanos) throws InterruptedException;
    }

    private static final Clocks JVM = new Clocks() {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long threadCpu(long threadId) {
            return threads.getThreadCpuTime(threadId);
        }

        @Override
        public void sleep(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    };

    private final double busyCoreShare;
    private final int cores;
    private final LongSupplier reportsAccepted;
    private final LongSupplier machineBusy;
    private final Clocks clocks;
    private final LongAdder heldBack = new LongAdder();
    /** Per stage thread id, its CPU time when last read. */
    private final Map<Long, Long> stageThreads = new HashMap<>();
    private long stageCpu;
    private long windowStart = Long.MIN_VALUE;
    private long stageAtStart;
    private long machineAtStart;
    private long reportsAtStart;
    private long reportsLastRose = Long.MIN_VALUE;
    private double otherCores = Double.NaN;
    /** The stage's CPU allowed in this window; {@link Long#MAX_VALUE}: not held back. */
    private long budget = Long.MAX_VALUE;

    /**
     * @param busyCoreShare   the least share of one core the stage keeps while ingest is busy ({@code evaluation.busyCoreShare})
     * @param cores           the machine's cores
     * @param reportsAccepted the reports the collector accepted so far
     * @param machineBusy     the machine's busy CPU so far, in nanoseconds ({@link MachineCpu#busyNanos})
     */
    public IngestFirstPacer(double busyCoreShare, int cores, LongSupplier reportsAccepted, LongSupplier machineBusy) {
        this(busyCoreShare, cores, reportsAccepted, machineBusy, JVM);
    }

    IngestFirstPacer(double busyCoreShare, int cores, LongSupplier reportsAccepted, LongSupplier machineBusy,
            Clocks clocks) {
        this.busyCoreShare = busyCoreShare;
        this.cores = cores;
        this.reportsAccepted = reportsAccepted;
        this.machineBusy = machineBusy;
        this.clocks = clocks;
    }

    @Override
    public void pace() {
        long now;
        long until;
        synchronized (this) {
            now = clocks.nanoTime();
            long self = Thread.currentThread().getId();
            // a thread's CPU is read when it first calls, and after that only at a window's end or while it is held
            if (!stageThreads.containsKey(self)) {
                stageThreads.put(self, Math.max(0, clocks.threadCpu(self)));
                if (windowStart == Long.MIN_VALUE) {
                    begin(now);
                    return;
                }
            }
            if (now - windowStart >= WINDOW) {
                roll(now);
            }
            if (budget == Long.MAX_VALUE || readStage() - stageAtStart < budget) {
                return;
            }
            until = windowStart + WINDOW;
        }
        try {
            clocks.sleep(until - now);
            heldBack.add(until - now);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Nanoseconds the stage's threads slept so that ingest had the CPU ({@code qatwatch_alert_stage_held_back_seconds_total}). */
    public long heldBackNanos() {
        return heldBack.sum();
    }

    /** True while the stage is held to a share: ingest busy and no core to spare. */
    public synchronized boolean holdingBack() {
        return budget != Long.MAX_VALUE;
    }

    private void begin(long now) {
        windowStart = now;
        stageAtStart = readStage();
        machineAtStart = machineBusy.getAsLong();
        reportsAtStart = reportsAccepted.getAsLong();
    }

    /** Ends the window: what the stage and the rest of the machine used in it, and the stage's share of the next one. */
    private void roll(long now) {
        double elapsed = now - windowStart;
        long stage = readStage();
        long machine = machineBusy.getAsLong();
        long reports = reportsAccepted.getAsLong();
        double other = Math.max(0, (machine - machineAtStart) - (stage - stageAtStart)) / elapsed;
        // /proc/stat counts in 10 ms ticks: over one window that is coarse, so the estimate is smoothed
        otherCores = Double.isNaN(otherCores) ? other : (otherCores + other) / 2;
        if (reports != reportsAtStart) {
            reportsLastRose = now;
        }
        boolean ingestBusy = reportsLastRose != Long.MIN_VALUE && now - reportsLastRose <= INGEST_QUIET;
        double allowed = Math.max(busyCoreShare, cores * HEADROOM - otherCores);
        budget = !ingestBusy || allowed >= cores ? Long.MAX_VALUE : (long) (allowed * WINDOW);
        windowStart = now;
        stageAtStart = stage;
        machineAtStart = machine;
        reportsAtStart = reports;
    }

    /** The CPU the stage's threads used in all, an ended thread's up to its last reading. */
    private long readStage() {
        for (Iterator<Map.Entry<Long, Long>> it = stageThreads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Long> e = it.next();
            long cpu = clocks.threadCpu(e.getKey());
            if (cpu < 0) {
                it.remove();
            } else {
                stageCpu += Math.max(0, cpu - e.getValue());
                e.setValue(cpu);
            }
        }
        return stageCpu;
    }
}
