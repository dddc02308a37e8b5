package io.qatwatch.agent.probe.licence;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.probe.host.CpuInfo;
import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatDevice.PciFunction;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.util.List;
import org.junit.jupiter.api.Test;

class LicenceAssessmentTest {

    static final CpuInfo XEON = new CpuInfo("GenuineIntel", "Intel(R) Xeon(R) Gold 6430", 1, 64, false);
    static final CpuInfo EPYC = new CpuInfo("AuthenticAMD", "AMD EPYC 9354 32-Core Processor", 2, 128, false);
    static final PciDevice E810 = new PciDevice("0000:41:00.0", "8086", "159b", "020000", "ice", "E810");
    static final PciDevice E1000 = new PciDevice("0000:00:03.0", "8086", "100e", "020000", "e1000", "82540EM");
    static final PciDevice PIIX4 = new PciDevice("0000:00:07.0", "8086", "7110", "060100", null, "PIIX4 ISA");
    static final QatDevice VF = new QatDevice("0000:03:00.0", "8086:4941", PciFunction.VF, "4xxx", "VF", "vfio-pci",
            null, List.of());
    static final QatSoftware QATZIP = new QatSoftware(null, null, null,
            List.of(new SoftwareItem("libqatzip.so.3.0.3", "/usr/lib64/libqatzip.so.3.0.3", "3.0.3", null)), null, null, null);

    @Test
    void aQatFunctionWinsOverEverythingElseEvenAVfOnAnAmdHost() {
        LicenceFacts facts = assess(EPYC, List.of(E810), List.of(VF), QatSoftware.none(), "KVM", "linux");

        assertThat(facts.verdict()).isEqualTo(LicenceVerdict.INTEL_QAT_HARDWARE);
        assertThat(facts.notes()).anyMatch(n -> n.contains("virtual functions passed through to this KVM guest"));
    }

    @Test
    void anIntelCpuComesNext() {
        LicenceFacts facts = assess(XEON, List.of(), List.of(), QatSoftware.none(), null, "linux");

        assertThat(facts.verdict()).isEqualTo(LicenceVerdict.INTEL_CPU);
        assertThat(facts.intelComponents()).extracting(LicenceFacts.IntelComponent::kind)
                .containsExactly(LicenceFacts.ComponentKind.CPU);
    }

    @Test
    void aPhysicalIntelNicOnAmdIsTheGreyZone() {
        LicenceFacts facts = assess(EPYC, List.of(E810), List.of(), QATZIP, null, "linux");

        assertThat(facts.verdict()).isEqualTo(LicenceVerdict.INTEL_COMPONENT_ONLY);
        assertThat(facts.qatSoftwareInstalled()).isTrue();
        assertThat(facts.notes().get(0)).contains("grey zone").contains("NIC 8086:159b E810");
    }

    @Test
    void anE1000IsEmulatedOnlyInsideAVm() {
        assertThat(assess(EPYC, List.of(E1000, PIIX4), List.of(), QATZIP, "VMware", "linux").verdict())
                .isEqualTo(LicenceVerdict.INTEL_EMULATED_DEVICE_ONLY);
        assertThat(assess(EPYC, List.of(E1000), List.of(), QATZIP, null, "linux").verdict())
                .isEqualTo(LicenceVerdict.INTEL_COMPONENT_ONLY);
    }

    @Test
    void aPhysicalNicPassedToAVmIsNotEmulated() {
        LicenceFacts facts = assess(EPYC, List.of(PIIX4, E810), List.of(), QatSoftware.none(), "KVM", "linux");

        assertThat(facts.verdict()).isEqualTo(LicenceVerdict.INTEL_COMPONENT_ONLY);
        assertThat(facts.intelComponents()).extracting(LicenceFacts.IntelComponent::emulated).containsExactly(true, false);
    }

    @Test
    void qatSoftwareWithoutAnyIntelPartIsOutsideTheLicence() {
        LicenceFacts facts = assess(EPYC, List.of(), List.of(), QATZIP, null, "linux");

        assertThat(facts.verdict()).isEqualTo(LicenceVerdict.NO_INTEL_COMPONENT);
        assertThat(facts.notes().get(0)).startsWith("QAT software installed (libqatzip.so.3.0.3), no Intel component found:"
                + " outside the driver licence");
    }

    @Test
    void anUnreadableCpuOrPciListMakesTheVerdictUnknownRatherThanNone() {
        assertThat(assess(null, List.of(), List.of(), QatSoftware.none(), null, "linux").verdict())
                .isEqualTo(LicenceVerdict.UNKNOWN);
        LicenceFacts unreadPci = LicenceAssessment.assess(new LicenceAssessment.Input(EPYC, List.of(), false, List.of(),
                QatSoftware.none(), null, "linux"));
        assertThat(unreadPci.verdict()).isEqualTo(LicenceVerdict.UNKNOWN);
    }

    @Test
    void aWindowsGuestOutsideHyperVIsToldTheWindowsDriverSupportsHyperVOnly() {
        assertThat(assess(EPYC, List.of(PIIX4), List.of(), QatSoftware.none(), "VMware", "windows").notes())
                .anyMatch(n -> n.startsWith("VMware: Intel's QAT driver for Windows supports Hyper-V only"));
        assertThat(assess(XEON, List.of(), List.of(), QatSoftware.none(), "Hyper-V", "windows").notes())
                .noneMatch(n -> n.contains("supports Hyper-V only"));
        assertThat(assess(EPYC, List.of(PIIX4), List.of(), QatSoftware.none(), "VMware", "linux").notes())
                .noneMatch(n -> n.contains("supports Hyper-V only"));
    }

    private static LicenceFacts assess(CpuInfo cpu, List<PciDevice> pci, List<QatDevice> qat, QatSoftware software,
            String virtualization, String os) {
        return LicenceAssessment.assess(new LicenceAssessment.Input(cpu, pci, true, qat, software, virtualization, os));
    }
}
