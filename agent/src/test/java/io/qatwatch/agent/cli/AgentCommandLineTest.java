package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What every command of the agent jar answers to {@code -V/--version} and to a bad flag. */
class AgentCommandLineTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-V", "--version", "probe -V", "probe --version", "agent -V", "version", "version -V"})
    void everyCommandPrintsTheVersion(String args) {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run(args.split(" "));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).matches("qatwatch \\S+ \\(report schema \\d+\\)\\R");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--bogus", "probe --bogus", "agent --config agent.yaml --bogus", "version --bogus"})
    void aBadFlagPrintsTheUsageAndExits2(String args) {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run(args.split(" "));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--bogus'", "Usage: qatwatch");
        assertThat(run.out()).isEmpty();
    }
}
