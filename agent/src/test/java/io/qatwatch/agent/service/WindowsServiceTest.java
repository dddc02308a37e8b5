package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WindowsServiceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String[] ARGS = {
        "--config", "C:\\ProgramData\\qatwatch\\agent.yaml", "--data", "C:\\ProgramData\\qatwatch\\state"};

    @Test
    void startRunsTheAgentFromItsArgumentsUntilStopIsCalledOnAnotherThread() throws Exception {
        FakeAgentRuntime runtime = FakeAgentRuntime.healthy();
        AtomicReference<ServiceArguments> seen = new AtomicReference<>();

        CompletableFuture<ServiceOutcome> start = CompletableFuture.supplyAsync(() -> WindowsService.run(ARGS,
                arguments -> {
                    seen.set(arguments);
                    return runtime;
                }, TIMEOUT, TIMEOUT));
        assertThat(runtime.startCalled.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(start).isNotDone();

        WindowsService.stop(new String[0]);

        assertThat(start.get(5, TimeUnit.SECONDS)).isEqualTo(ServiceOutcome.STOPPED);
        assertThat(runtime.stops).hasValue(1);
        assertThat(seen.get().configFile()).isEqualTo(Path.of("C:\\ProgramData\\qatwatch\\agent.yaml"));
        assertThat(seen.get().dataDir()).isEqualTo(Path.of("C:\\ProgramData\\qatwatch\\state"));
    }

    @Test
    void badStartParametersFailTheStartWithoutBuildingAnAgent() {
        AtomicReference<ServiceArguments> seen = new AtomicReference<>();

        ServiceOutcome outcome = WindowsService.run(new String[] {"--config"}, arguments -> {
            seen.set(arguments);
            return FakeAgentRuntime.healthy();
        }, TIMEOUT, TIMEOUT);

        assertThat(outcome).isEqualTo(ServiceOutcome.START_FAILED);
        assertThat(seen.get()).isNull();
    }

    @Test
    void aStopThatOvertakesTheStartKeepsTheAgentFromStarting() {
        FakeAgentRuntime runtime = FakeAgentRuntime.healthy();

        WindowsService.stop(new String[0]);
        ServiceOutcome outcome = WindowsService.run(ARGS, arguments -> runtime, TIMEOUT, TIMEOUT);

        assertThat(outcome).isEqualTo(ServiceOutcome.STOPPED);
        assertThat(runtime.starts).hasValue(0);
    }

    @Test
    void theRunningServiceDeletesProcrunLogsOlderThanTheDaysKept(@TempDir Path logs) throws Exception {
        Path old = Files.writeString(logs.resolve("procrun.2020-01-01.log"), "old\n");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(40))));
        Path today = Files.writeString(logs.resolve("qatwatch-agent-stdout.2030-01-01.log"), "today\n");
        FakeAgentRuntime runtime = FakeAgentRuntime.healthy();
        String[] args = {"--config", "agent.yaml", "--data", "state", "--logs", logs.toString(), "--keep-log-days", "30"};

        CompletableFuture<ServiceOutcome> start = CompletableFuture.supplyAsync(
                () -> WindowsService.run(args, arguments -> runtime, TIMEOUT, TIMEOUT));
        assertThat(runtime.startCalled.await(5, TimeUnit.SECONDS)).isTrue();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (Files.exists(old) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(old).doesNotExist();
            assertThat(today).exists();
        } finally {
            WindowsService.stop(new String[0]);
            assertThat(start.get(5, TimeUnit.SECONDS)).isEqualTo(ServiceOutcome.STOPPED);
        }
    }
}
