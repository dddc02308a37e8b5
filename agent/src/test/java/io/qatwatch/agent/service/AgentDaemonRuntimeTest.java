package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real agent daemon driven the way the Windows service drives it. */
class AgentDaemonRuntimeTest {

    @TempDir
    Path dir;

    @Test
    void startsTheDaemonFromTheServiceArgumentsAndStopsIt() throws Exception {
        int nobodyListens;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            nobodyListens = socket.getLocalPort();
        }
        Path token = Files.writeString(dir.resolve("agent.token"), "qw_test_token\n");
        Path config = Files.writeString(dir.resolve("agent.yaml"), """
                agent:
                  name: service-test
                collector:
                  url: http://127.0.0.1:%d
                  tokenFile: agent.token
                health:
                  port: 0
                """.formatted(nobodyListens));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        Path data = dir.resolve("state");
        AgentDaemonRuntime runtime = new AgentDaemonRuntime(new ServiceArguments(config, data), Map.of());

        runtime.start().toCompletableFuture().get(60, TimeUnit.SECONDS);

        assertThat(data).isDirectory();
        runtime.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aMissingConfigFailsTheStartNamingTheFileAndStopStillCompletes() throws Exception {
        Path config = dir.resolve("agent.yaml");
        AgentDaemonRuntime runtime = new AgentDaemonRuntime(new ServiceArguments(config, dir.resolve("state")), Map.of());

        assertThatThrownBy(() -> runtime.start().toCompletableFuture().get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining(config.toString());
        runtime.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
