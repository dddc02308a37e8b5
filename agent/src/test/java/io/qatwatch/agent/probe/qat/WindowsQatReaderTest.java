package io.qatwatch.agent.probe.qat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.host.RegExport;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Windows QAT reader on small exports: which device states and drivers the registry values lead to. */
class WindowsQatReaderTest {

    static final String PF1 = "PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\6&1&0&8";
    static final String PF2 = "PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\6&2&0&8";

    @Test
    void configFlagsDisabledMakesTheDeviceDownAndNotReadyAlthoughItsServiceIsNamed() {
        QatFacts qat = read(device(PF1, 0x1, "icp_qat4"));

        assertThat(qat.devices()).extracting(QatDevice::state).containsExactly("down");
        assertThat(qat.compressionReady()).isFalse();
        assertThat(QatDevices.whyNotReady(qat.devices())).startsWith(PF1 + " is disabled in Device Manager");
    }

    @Test
    void aDriverServiceThatRunsNoDeviceMeansItsDevicesAreDisabled() {
        QatFacts qat = read(device(PF1, 0, "icp_qat4") + service("icp_qat4", 0));

        assertThat(qat.devices()).extracting(QatDevice::state).containsExactly("down");
        assertThat(qat.compressionReady()).isFalse();
    }

    @Test
    void oneDisabledFunctionOfTwoLeavesTheHostReady() {
        QatFacts qat = read(device(PF1, 0x1, "icp_qat4") + device(PF2, 0, "icp_qat4") + service("icp_qat4", 1));

        assertThat(qat.devices()).extracting(QatDevice::state).containsExactly("down", null);
        assertThat(qat.compressionReady()).isTrue();
    }

    @Test
    void aFailedInstallIsNoDriverBoundRatherThanDisabled() {
        for (int flags : new int[] {0x40, 0x400}) {
            QatFacts qat = read(device(PF1, flags, null));

            assertThat(qat.devices()).extracting(QatDevice::state).containsExactly((String) null);
            assertThat(QatDevices.whyNotReady(qat.devices())).isEqualTo(PF1 + " has no driver bound");
        }
    }

    @Test
    void aQatDriverNamedByADeviceIsInstalledEvenWhenServicesWereNotExported() {
        QatFacts qat = read(device(PF1, 0, "icp_qat4") + device(PF2, 0, "icp_qat4"));

        assertThat(qat.software().drivers()).extracting(SoftwareItem::name).containsExactly("icp_qat4");
        assertThat(qat.software().anyInstalled()).isTrue();
    }

    @Test
    void aDriverFromTheServicesKeyIsListedOnceWithItsPath() {
        QatFacts qat = read(device(PF1, 0, "icp_qat4") + service("icp_qat4", 1));

        assertThat(qat.software().drivers()).extracting(SoftwareItem::name, SoftwareItem::path)
                .containsExactly(tuple("icp_qat4", "\\SystemRoot\\System32\\drivers\\icp_qat4.sys"));
    }

    static QatFacts read(String keys) {
        ProbeProblems problems = new ProbeProblems();
        RegExport registry = RegExport.parse(("Windows Registry Editor Version 5.00\r\n\r\n" + keys)
                .getBytes(StandardCharsets.UTF_8), "test.reg", problems);
        List<PciDevice> pci = new WindowsPciReader(registry).read(problems);
        QatFacts qat = new WindowsQatReader(registry, WindowsLibraries.NONE).read(pci, problems);
        assertThat(problems.list()).isEmpty();
        return qat;
    }

    static String device(String path, int configFlags, String service) {
        return "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Enum\\" + path + "]\r\n"
                + "\"DeviceDesc\"=\"@oem23.inf,%4xxx.devicedesc%;Intel(R) 4xxx Accelerator\"\r\n"
                + String.format("\"ConfigFlags\"=dword:%08x\r\n", configFlags)
                + (service == null ? "" : "\"Service\"=\"" + service + "\"\r\n") + "\r\n";
    }

    static String service(String name, int running) {
        return "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\" + name + "]\r\n"
                + "\"ImagePath\"=\"\\\\SystemRoot\\\\System32\\\\drivers\\\\" + name + ".sys\"\r\n"
                + "\"Start\"=dword:00000003\r\n\r\n"
                + "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\" + name + "\\Enum]\r\n"
                + String.format("\"Count\"=dword:%08x\r\n\r\n", running);
    }
}
