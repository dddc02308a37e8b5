package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

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

    /**
     * The daemon's command line read without picocli means what picocli reads it to mean, and anything else is left
     * to picocli (so help, errors and their exit codes stay picocli's).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"agent --config a.yaml", "agent --config a.yaml --data d", "agent --data d --config a.yaml",
            "agent --config=a.yaml --data=d", "agent --data=/var/lib/q --config /etc/q/a.yaml"})
    void theDaemonsCommandLineReadsAsPicocliReadsIt(String args) {
        String[] argv = args.split(" ");
        AgentCommand plain = AgentCommand.plain(argv);
        AgentCommand picocli = new AgentCommand();
        new CommandLine(picocli).parseArgs(List.of(argv).subList(1, argv.length).toArray(String[]::new));

        assertThat(plain).isNotNull();
        assertThat(plain.config).isEqualTo(picocli.config);
        assertThat(plain.data).isEqualTo(picocli.data);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"agent", "agent --data d", "agent --config", "agent --config a.yaml --help", "agent -h --config a.yaml",
            "agent --config a.yaml -V", "agent --config a.yaml --config b.yaml", "agent --config a.yaml --bogus", "agent --config=",
            "agent --config -x", "agent @args.txt", "agent --config @a", "probe --config a.yaml", "agent --config a.yaml extra",
            "agent --configx=a.yaml"})
    void everyOtherCommandLineIsLeftToPicocli(String args) {
        assertThat(AgentCommand.plain(args.split(" "))).isNull();
    }
}
