package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerProcessTest {

    @Test
    void aCollectorUnderTestExitsOnSigtermWithoutBeingKilled(@TempDir Path work) throws Exception {
        // a close chained on the collector's stop landed on a terminated event loop: every bench collector waited out
        // its 30 s and was killed, which the fleet100k bench reported as a slow stop and which held its slices' leases
        ServerProcess server = ServerProcess.start("stop", List.of("-Xmx256m"),
                List.of("collector", "--data", work.resolve("data").toString()), work);
        assertThat(server.alive()).isTrue();

        Duration stop = server.stop();

        assertThat(stop).as("exited on SIGTERM, not killed after 30 s").isNotNull();
        assertThat(server.alive()).isFalse();
    }
}
