package io.qatwatch.collector.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The pacer on a simulated machine of two cores: a stage thread that works in 5 ms units and calls {@link Pacer#pace}
 * between them, beside "the rest of the machine" (ingest, the load driver) using a given number of cores, and reports
 * arriving or not. What is asserted is the share of one core the stage ended up with over 20 simulated seconds.
 */
class IngestFirstPacerTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long UNIT = 5 * MS;

    /** A simulated machine: time moves only as the stage works or sleeps. */
    private static final class Machine implements IngestFirstPacer.Clocks {
        long now = 1_000 * MS;
        long stageCpu;
        long slept;
        double otherCores;
        boolean reportsArriving;
        long reports;
        final long stageThread = Thread.currentThread().getId();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public long threadCpu(long threadId) {
            return threadId == stageThread ? stageCpu : -1;
        }

        @Override
        public void sleep(long nanos) {
            advance(nanos, false);
            slept += nanos;
        }

        long machineBusy;

        void advance(long nanos, boolean stageWorks) {
            now += nanos;
            if (stageWorks) {
                stageCpu += nanos;
                machineBusy += nanos;
            }
            machineBusy += (long) (otherCores * nanos);
            if (reportsArriving) {
                reports += nanos / MS;
            }
        }

        /** Runs the stage for {@code seconds} of simulated time; returns the share of one core it used. */
        double run(Pacer pacer, int seconds) {
            long from = now;
            long cpuFrom = stageCpu;
            while (now - from < seconds * 1_000 * MS) {
                pacer.pace();
                advance(UNIT, true);
            }
            return (double) (stageCpu - cpuFrom) / (now - from);
        }
    }

    private static IngestFirstPacer pacer(Machine m, double busyCoreShare) {
        return new IngestFirstPacer(busyCoreShare, 2, () -> m.reports, () -> m.machineBusy, m);
    }

    @Test
    void reportsArrivingOnABusyMachineHoldTheStageToItsShare() {
        Machine m = new Machine();
        m.otherCores = 1.9;
        m.reportsArriving = true;
        IngestFirstPacer pacer = pacer(m, 0.25);
        double share = m.run(pacer, 20);
        assertThat(share).as("the stage's share of one core").isBetween(0.22, 0.30);
        assertThat(pacer.holdingBack()).isTrue();
        assertThat(pacer.heldBackNanos()).isEqualTo(m.slept).isGreaterThan(10_000 * MS);
    }

    @Test
    void theStageTakesWhatIngestLeavesOfNinetyPercentOfTheMachine() {
        Machine m = new Machine();
        m.otherCores = 1.3;
        m.reportsArriving = true;
        double share = m.run(pacer(m, 0.25), 20);
        // 2 cores x 0.9 - 1.3 = 0.5 of a core
        assertThat(share).isBetween(0.42, 0.58);
    }

    @Test
    void withoutReportsTheStageRunsAtFullSpeedHoweverBusyTheMachine() {
        Machine m = new Machine();
        m.otherCores = 1.9;
        IngestFirstPacer pacer = pacer(m, 0.25);
        assertThat(m.run(pacer, 20)).isEqualTo(1.0);
        assertThat(pacer.heldBackNanos()).isZero();
        assertThat(pacer.holdingBack()).isFalse();
    }

    @Test
    void withACoreToSpareTheStageIsNotHeldBack() {
        Machine m = new Machine();
        m.otherCores = 0.3;
        m.reportsArriving = true;
        assertThat(m.run(pacer(m, 0.25), 20)).isEqualTo(1.0);
    }

    @Test
    void theStageGoesBackToFullSpeedASecondAfterTheLastReport() {
        Machine m = new Machine();
        m.otherCores = 1.9;
        m.reportsArriving = true;
        IngestFirstPacer pacer = pacer(m, 0.25);
        assertThat(m.run(pacer, 5)).isLessThan(0.3);
        m.reportsArriving = false;
        m.otherCores = 0.9;
        m.run(pacer, 2);
        assertThat(pacer.holdingBack()).isFalse();
        assertThat(m.run(pacer, 5)).isEqualTo(1.0);
    }

    @Test
    void procStatsBusyTicksLeaveOutIdleAndIowait() {
        // user nice system idle iowait irq softirq steal guest guest_nice (proc(5))
        assertThat(MachineCpu.busyTicks("cpu  100 2 30 5000 70 4 5 6 0 0")).isEqualTo(100 + 2 + 30 + 4 + 5 + 6);
    }
}
