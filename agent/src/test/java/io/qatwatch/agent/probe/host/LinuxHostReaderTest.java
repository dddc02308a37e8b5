package io.qatwatch.agent.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.HostFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LinuxHostReaderTest {

    static final Path HOSTS = Path.of("src/test/resources/hosts");

    @Test
    void cpuinfoOfATwoSocketXeonGivesVendorModelSocketsAndThreads() throws IOException {
        CpuInfo cpu = LinuxHostReader.parseCpuInfo(Files.readString(HOSTS.resolve("linux-spr-4xxx-dc-up/proc/cpuinfo")));

        assertThat(cpu).isEqualTo(new CpuInfo("GenuineIntel", "Intel(R) Xeon(R) Gold 6438Y+", 2, 128, false));
        assertThat(cpu.intel()).isTrue();
    }

    @Test
    void cpuinfoOfAGuestCarriesTheHypervisorFlag() throws IOException {
        CpuInfo cpu = LinuxHostReader.parseCpuInfo(
                Files.readString(HOSTS.resolve("linux-kvm-guest-epyc-e1000/proc/cpuinfo")));

        assertThat(cpu.vendor()).isEqualTo("AuthenticAMD");
        assertThat(cpu.hypervisor()).isTrue();
        assertThat(cpu.intel()).isFalse();
    }

    @Test
    void armCpuinfoHasNoVendorButCountsProcessors() {
        String arm = "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n\nprocessor\t: 1\nBogoMIPS\t: 50.00\n";

        assertThat(LinuxHostReader.parseCpuInfo(arm)).isEqualTo(new CpuInfo(null, null, null, 2, false));
    }

    @Test
    void osReleaseGivesPrettyNameAndVersion() {
        HostFacts.OperatingSystem os = LinuxHostReader.parseOsRelease(
                "NAME=\"Rocky Linux\"\nVERSION_ID=\"9.4\"\nPRETTY_NAME=\"Rocky Linux 9.4 (Blue Onyx)\"\n# comment\n");

        assertThat(os).isEqualTo(new HostFacts.OperatingSystem("linux", "Rocky Linux 9.4 (Blue Onyx)", "9.4"));
    }

    @Test
    void memTotalIsInKibibytes() {
        assertThat(LinuxHostReader.parseMemTotalBytes("MemTotal:       16384000 kB\nMemFree: 1 kB\n"))
                .isEqualTo(16384000L * 1024);
        assertThat(LinuxHostReader.parseMemTotalBytes("MemFree: 1 kB\n")).isNull();
    }
}
