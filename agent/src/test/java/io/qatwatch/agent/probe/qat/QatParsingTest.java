package io.qatwatch.agent.probe.qat;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatDevice.PciFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QatParsingTest {

    @Test
    void pciIdsNamesDevicesAndSkipsSubsystemsAndClasses() throws IOException {
        String text = Files.readString(Path.of("src/test/resources/hosts/linux-spr-4xxx-dc-up/usr/share/hwdata/pci.ids"));

        assertThat(PciIds.names(text, Set.of("8086:4940", "8086:100f", "15ad:0750", "8086:ffff")))
                .containsOnly(java.util.Map.entry("8086:4940", "4xxx Series QAT"),
                        java.util.Map.entry("8086:100f", "82545EM Gigabit Ethernet Controller (Copper)"));
    }

    @Test
    void hexIdsLoseTheirPrefixAndGainLeadingZeros() {
        assertThat(PciDevice.hexId("0x8086\n", 4)).isEqualTo("8086");
        assertThat(PciDevice.hexId("0x0b4000", 6)).isEqualTo("0b4000");
        assertThat(PciDevice.hexId("0x435", 4)).isEqualTo("0435");
        assertThat(PciDevice.hexId("intel", 4)).isNull();
    }

    @Test
    void everyGenerationIsRecognisedByItsPfAndVfIds() {
        assertThat(QatGeneration.of(pci("8086", "4946"))).hasValue(new QatGeneration.Match(QatGeneration.GEN4_420XX, PciFunction.PF));
        assertThat(QatGeneration.of(pci("8086", "0443"))).hasValue(new QatGeneration.Match(QatGeneration.DH895XCC, PciFunction.VF));
        assertThat(QatGeneration.of(pci("8086", "4949")).map(m -> m.generation().label())).hasValue("6xxx");
        assertThat(QatGeneration.of(pci("1022", "4940"))).isEmpty();
        assertThat(QatGeneration.of(pci("8086", "1521"))).isEmpty();
    }

    @Test
    void aDeviceCompressesWhenUpWithDcOrWhenItsStateIsUnknownButADriverIsBound() {
        assertThat(QatDevices.canCompress(device("4xxx", "up", List.of("dc")))).isTrue();
        assertThat(QatDevices.canCompress(device("4xxx", "up", List.of("sym", "dc")))).isTrue();
        assertThat(QatDevices.canCompress(device("4xxx", "up", List.of("sym", "asym")))).isFalse();
        assertThat(QatDevices.canCompress(device("4xxx", "down", List.of("dc")))).isFalse();
        assertThat(QatDevices.canCompress(device("4xxx", "up", List.of()))).isFalse();
        assertThat(QatDevices.canCompress(device("c6xx", null, List.of()))).isTrue();
        assertThat(QatDevices.canCompress(device(null, null, List.of()))).isFalse();
    }

    @Test
    void whyNotReadySaysWhatToChange() {
        assertThat(QatDevices.whyNotReady(List.of(device("4xxx", "down", List.of("dc")))))
                .isEqualTo("0000:6b:00.0 is down (echo up > qat/state)");
        assertThat(QatDevices.whyNotReady(List.of(device("4xxx", "up", List.of("dc"))))).isNull();
    }

    @Test
    void cfgServicesAreSplitOnSemicolons() {
        assertThat(QatDevices.parseServices("sym;asym\n")).containsExactly("sym", "asym");
        assertThat(QatDevices.parseServices("DC")).containsExactly("dc");
        assertThat(QatDevices.parseServices("  ")).isEmpty();
    }

    @Test
    void zlibAccelEnginesAreThoseSwitchedOn() {
        assertThat(LinuxQatReader.parseZlibAccelEngines("""
                # comment use_iaa_compress = 1
                use_qat_compress = 0
                use_qat_uncompress=1
                use_iaa_compress = 0
                use_zlib_compress = 1
                """)).containsExactly("qat", "zlib");
    }

    @Test
    void windowsClassCodeAndDeviceNameComeFromCompatibleIdsAndDeviceDesc() {
        assertThat(WindowsPciReader.classCode(List.of("PCI\\VEN_8086&DEV_4940", "PCI\\CC_0B40", "PCI\\CC_0B4000")))
                .isEqualTo("0b4000");
        assertThat(WindowsPciReader.classCode(List.of())).isNull();
        assertThat(WindowsPciReader.deviceName("@oem23.inf,%qat4xxx.devicedesc%;Intel(R) 4xxx Accelerator"))
                .isEqualTo("Intel(R) 4xxx Accelerator");
        assertThat(WindowsPciReader.deviceName("Plain name")).isEqualTo("Plain name");
    }

    private static PciDevice pci(String vendor, String device) {
        return new PciDevice("0000:01:00.0", vendor, device, "0b4000", null, null);
    }

    private static QatDevice device(String driver, String state, List<String> services) {
        return new QatDevice("0000:6b:00.0", "8086:4940", PciFunction.PF, "4xxx", "4xxx Series QAT", driver, state, services);
    }
}
