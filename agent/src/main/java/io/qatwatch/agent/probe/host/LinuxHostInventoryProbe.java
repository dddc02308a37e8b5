package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.ProbeSteps;
import io.qatwatch.agent.probe.licence.LicenceAssessment;
import io.qatwatch.agent.probe.qat.LinuxPciReader;
import io.qatwatch.agent.probe.qat.LinuxQatReader;
import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Linux host probe: everything from a root folder ({@code /} live, or {@code --root DIR}); on the live
 * machine OSHI may add what the root did not say (never the other way round).
 */
public final class LinuxHostInventoryProbe implements HostInventoryProbe {

    private final LinuxRoot root;
    private final boolean live;

    /** @param live whether the root is this machine's {@code /}, so that OSHI may fill gaps */
    public LinuxHostInventoryProbe(LinuxRoot root, boolean live) {
        this.root = root;
        this.live = live;
    }

    @Override
    public HostInventory collect() {
        ProbeSteps steps = new ProbeSteps(live ? "run qatwatch as a user that can read /proc and /sys"
                : "check that " + root.folder() + " holds a copy of a Linux root (proc/, sys/, lib/ ...)");
        LinuxHostReader.LinuxHostReading reading = steps.run("host", null, new LinuxHostReader(root)::read);
        List<PciDevice> pci = steps.run("pci", List.of(), new LinuxPciReader(root)::read);
        boolean pciRead = steps.ok("pci");
        HostFacts host = reading == null ? new HostFacts(null, null, null, null, null, null) : hostFacts(reading, pci);
        if (live && OshiFacts.worthAsking(host)) {
            host = steps.run("oshi", OshiFacts.NONE, problems -> OshiFacts.readLive("linux", problems)).fillGaps(host);
        }
        QatFacts qat = steps.run("qat", new QatFacts(List.of(), QatSoftware.none(), false),
                problems -> new LinuxQatReader(root).read(pci, problems));
        CpuInfo cpu = reading == null ? null : reading.cpu();
        String virtualization = host.virtualization();
        LicenceFacts licence = steps.run("licence", new LicenceFacts(LicenceVerdict.UNKNOWN, null, false, null),
                problems -> LicenceAssessment.assess(new LicenceAssessment.Input(
                        cpu, pci, pciRead, qat.devices(), qat.software(), virtualization, "linux")));
        return new HostInventory(host, qat, licence, steps.statuses());
    }

    private static HostFacts hostFacts(LinuxHostReader.LinuxHostReading r, List<PciDevice> pci) {
        Set<String> vendors = pci.stream().map(PciDevice::vendorId).collect(Collectors.toSet());
        String manufacturer = r.system() == null ? null : r.system().manufacturer();
        String model = r.system() == null ? null : r.system().model();
        String virtualization = Virtualization.detect(
                new Virtualization.Signals(r.cpu(), manufacturer, model, r.biosVendor(), vendors));
        CpuInfo cpu = r.cpu();
        HostFacts.Cpu cpuFacts = cpu.vendor() == null && cpu.model() == null ? null
                : new HostFacts.Cpu(cpu.vendor(), cpu.model(), cpu.sockets(), cpu.logicalCores());
        return new HostFacts(r.hostname(), cpuFacts, r.system(), virtualization, r.os(), r.memoryBytes());
    }
}
