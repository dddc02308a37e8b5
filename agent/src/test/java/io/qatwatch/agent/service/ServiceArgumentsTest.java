package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceArgumentsTest {

    @Test
    void readsConfigAndDataInAnyOrder() {
        ServiceArguments parsed = ServiceArguments.parse(
                List.of("--data", "C:\\ProgramData\\qatwatch\\state", "--config", "C:\\ProgramData\\qatwatch\\agent.yaml"));

        assertThat(parsed.configFile()).isEqualTo(Path.of("C:\\ProgramData\\qatwatch\\agent.yaml"));
        assertThat(parsed.dataDir()).isEqualTo(Path.of("C:\\ProgramData\\qatwatch\\state"));
    }

    @Test
    void missingConfigIsNamed() {
        assertThatThrownBy(() -> ServiceArguments.parse(List.of("--data", "state")))
                .hasMessageContaining("--config FILE is missing")
                .hasMessageContaining("install-agent.ps1");
    }

    @Test
    void missingDataIsNamed() {
        assertThatThrownBy(() -> ServiceArguments.parse(List.of("--config", "agent.yaml")))
                .hasMessageContaining("--data DIR is missing");
    }

    @Test
    void aFlagWithoutValueIsNamed() {
        assertThatThrownBy(() -> ServiceArguments.parse(List.of("--data", "state", "--config")))
                .hasMessageContaining("--config has no value");
    }

    @Test
    void anUnknownParameterIsNamed() {
        assertThatThrownBy(() -> ServiceArguments.parse(List.of("--confg", "agent.yaml")))
                .hasMessageContaining("unknown service start parameter '--confg'");
    }

    @Test
    void readsTheLogFolderAndTheDaysToKeep() {
        ServiceArguments parsed = ServiceArguments.parse(List.of("--config", "agent.yaml", "--data", "state",
                "--logs", "C:\\ProgramData\\qatwatch\\logs", "--keep-log-days", "14"));

        assertThat(parsed.logDir()).isEqualTo(Path.of("C:\\ProgramData\\qatwatch\\logs"));
        assertThat(parsed.keepLogDays()).isEqualTo(14);
    }

    @Test
    void withoutALogFolderNothingIsPruned() {
        ServiceArguments parsed = ServiceArguments.parse(List.of("--config", "agent.yaml", "--data", "state"));

        assertThat(parsed.logDir()).isNull();
    }

    @Test
    void daysToKeepMustBeAPositiveWholeNumber() {
        assertThatThrownBy(() -> ServiceArguments.parse(List.of("--config", "a.yaml", "--data", "s", "--keep-log-days", "0")))
                .hasMessageContaining("--keep-log-days must be a whole number of days, 1 or more, not '0'");
    }
}
