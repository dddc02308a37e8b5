package io.qatwatch.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeCommandTest {

    @Test
    void anUnknownFlagIsAUsageErrorWithExitCode2() {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--jsn");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--jsn'").contains("Usage: qatwatch probe");
    }

    @Test
    void rootAndRegistryTogetherAreAUsageError() {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--root", "/", "--registry", "x.reg");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mutually exclusive");
    }

    @Test
    void aRootThatDoesNotExistIsAUsageErrorThatSaysWhatToGive(@TempDir Path tmp) {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--root", tmp.resolve("nope").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--root " + tmp.resolve("nope") + ": no such folder. Give the folder that holds");
    }

    @Test
    void anEmptyRootIsProbedAndItsProblemsAreReportedWithExitCode0(@TempDir Path tmp) {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--json", "--root", tmp.toString());

        assertThat(run.exitCode()).isZero();
        AgentReport report = ReportJson.parse(run.out().getBytes(StandardCharsets.UTF_8));
        assertThat(report.probes()).filteredOn(p -> !p.ok()).extracting(ProbeStatus::name).containsExactly("host", "pci");
        assertThat(report.licence().verdict().name()).isEqualTo("UNKNOWN");
    }

    @Test
    void thisMachineIsProbedLiveWithAValidReport() {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        AgentReport report = ReportJson.parse(run.out().getBytes(StandardCharsets.UTF_8));
        assertThat(ReportValidator.validate(report, ProbeScenarioGoldenTest.NOW)).isEmpty();
        assertThat(report.probes()).extracting(ProbeStatus::name).contains("host", "pci", "qat", "licence");
        assertThat(report.host().os().family()).isEqualTo("linux");
        assertThat(report.licence().verdict()).isNotNull();
    }

    @Test
    void textOutputOfThisMachineNamesTheVerdict() {
        ProbeScenarioGoldenTest.Run run = ProbeScenarioGoldenTest.run("probe");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("CPU ").contains("Licence ").contains("Problems ");
    }
}
