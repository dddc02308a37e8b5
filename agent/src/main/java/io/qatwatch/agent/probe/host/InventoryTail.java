package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.ProbeSteps;
import io.qatwatch.agent.probe.licence.LicenceAssessment;
import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import java.util.List;
import java.util.function.Function;

/** The steps both platform probes end with once the host and its PCI devices are read: QAT, then the licence verdict. */
final class InventoryTail {

    private InventoryTail() {
    }

    static HostInventory qatAndLicence(ProbeSteps steps, HostFacts host, HostReading reading, List<PciDevice> pci,
            Function<ProbeProblems, QatFacts> qatReader, String osFamily) {
        boolean pciRead = steps.ok("pci");
        QatFacts qat = steps.run("qat", new QatFacts(List.of(), QatSoftware.none(), false), qatReader);
        CpuInfo cpu = reading == null ? null : reading.cpu();
        LicenceFacts licence = steps.run("licence", new LicenceFacts(LicenceVerdict.UNKNOWN, null, false, null),
                problems -> LicenceAssessment.assess(new LicenceAssessment.Input(
                        cpu, pci, pciRead, qat.devices(), qat.software(), host.virtualization(), osFamily)));
        return new HostInventory(host, qat, licence, steps.statuses());
    }
}
