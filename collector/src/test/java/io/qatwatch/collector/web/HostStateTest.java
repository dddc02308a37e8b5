package io.qatwatch.collector.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** A host state from an alert's severity, as every status page reads each active alert's. */
class HostStateTest {

    @Test
    void aLabelInAnyCaseIsItsStateAndAnythingElseIsNone() {
        assertThat(HostState.parse("critical")).isEqualTo(HostState.CRITICAL);
        assertThat(HostState.parse("WARNING")).isEqualTo(HostState.WARNING);
        assertThat(HostState.parse("Info")).isEqualTo(HostState.INFO);
        assertThat(HostState.parse("page")).isNull();
        assertThat(HostState.parse(null)).isNull();
        assertThat(HostState.labels()).containsExactly("silent", "critical", "warning", "info", "ok");
    }

    /** The fleet page parses every active alert's severity on each request: 10,000 alerts cost no garbage. */
    @Test
    void parsingTenThousandSeveritiesAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String[] severities = {"critical", "warning", "info"};
        HostState.parse("warning");
        long before = threads.getCurrentThreadAllocatedBytes();
        int warnings = 0;
        for (int i = 0; i < 10_000; i++) {
            warnings += HostState.parse(severities[i % 3]) == HostState.WARNING ? 1 : 0;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(warnings).isEqualTo(3_333);
        assertThat(allocated).as("bytes allocated by 10,000 parses (a stream allocated ~4 MB)").isLessThan(16_384);
    }
}
