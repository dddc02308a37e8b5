package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WindowsServiceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String[] ARGS = {"--config", "C:\\ProgramData\\qatwatch\\agent.yaml", "--data", "C:\\ProgramData\\qatwatch\\state"};

    @Test
    void startRunsTheAgentFromItsArgumentsUntilStopIsCalledOnAnotherThread() throws Exception {
        FakeAgentRuntime runtime = FakeAgentRuntime.healthy();
        AtomicReference<ServiceArguments> seen = new AtomicReference<>();

        CompletableFuture<ServiceOutcome> start = CompletableFuture.supplyAsync(() -> WindowsService.run(ARGS,
                () -> arguments -> {
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

        ServiceOutcome outcome = WindowsService.run(new String[] {"--config"}, () -> arguments -> {
            seen.set(arguments);
            return FakeAgentRuntime.healthy();
        }, TIMEOUT, TIMEOUT);

        assertThat(outcome).isEqualTo(ServiceOutcome.START_FAILED);
        assertThat(seen.get()).isNull();
    }

    @Test
    void aJarWithoutADaemonFailsTheStartWithAMessageInsteadOfHanging() {
        assertThat(WindowsService.run(ARGS, WindowsService::loadFactory, TIMEOUT, TIMEOUT))
                .isEqualTo(ServiceOutcome.START_FAILED);
    }

    @Test
    void aStopThatOvertakesTheStartKeepsTheAgentFromStarting() {
        FakeAgentRuntime runtime = FakeAgentRuntime.healthy();

        WindowsService.stop(new String[0]);
        ServiceOutcome outcome = WindowsService.run(ARGS, () -> arguments -> runtime, TIMEOUT, TIMEOUT);

        assertThat(outcome).isEqualTo(ServiceOutcome.STOPPED);
        assertThat(runtime.starts).hasValue(0);
    }
}
