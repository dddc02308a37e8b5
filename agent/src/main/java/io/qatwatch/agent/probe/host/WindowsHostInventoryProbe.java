package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.ProbeSteps;
import io.qatwatch.agent.probe.licence.LicenceAssessment;
import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.agent.probe.qat.WindowsLibraries;
import io.qatwatch.agent.probe.qat.WindowsPciReader;
import io.qatwatch.agent.probe.qat.WindowsQatReader;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Windows host probe: everything from the registry (live through JNA, or a {@code reg export} file);
 * live, the QAT libraries' files and OSHI's facts are added.
 */
public final class WindowsHostInventoryProbe implements HostInventoryProbe {

    private final Function<ProbeProblems, RegistryView> registry;
    private final WindowsLibraries libraries;
    private final boolean live;
    private final String hint;

    /**
     * @param registry opens the registry, reporting what it could not read (a malformed export file)
     * @param live     whether this is the live machine, so that OSHI may fill gaps
     */
    public WindowsHostInventoryProbe(Function<ProbeProblems, RegistryView> registry, WindowsLibraries libraries,
            boolean live, String hint) {
        this.registry = registry;
        this.libraries = libraries;
        this.live = live;
        this.hint = hint;
    }

    @Override
    public HostInventory collect() {
        ProbeSteps steps = new ProbeSteps(hint);
        RegistryView view = steps.run("registry", null, registry);
        if (view == null) {
            return new HostInventory(new HostFacts(null, null, null, null, null, null),
                    new QatFacts(List.of(), QatSoftware.none(), false),
                    new LicenceFacts(LicenceVerdict.UNKNOWN, null, false,
                            List.of("The registry could not be read (see probes): the verdict needs the CPU and the PCI devices.")),
                    steps.statuses());
        }
        WindowsHostReader.WindowsHostReading reading = steps.run("host", null, new WindowsHostReader(view)::read);
        List<PciDevice> pci = steps.run("pci", List.of(), new WindowsPciReader(view)::read);
        boolean pciRead = steps.ok("pci");
        HostFacts host = reading == null ? new HostFacts(null, null, null, null, null, null) : hostFacts(reading, pci);
        if (live) {
            host = OshiFacts.withJvmMemory(host);
        }
        if (live && OshiFacts.worthAsking(host)) {
            host = steps.run("oshi", OshiFacts.NONE, problems -> OshiFacts.readLive("windows", problems)).fillGaps(host);
        }
        QatFacts qat = steps.run("qat", new QatFacts(List.of(), QatSoftware.none(), false),
                problems -> new WindowsQatReader(view, libraries).read(pci, problems));
        CpuInfo cpu = reading == null ? null : reading.cpu();
        String virtualization = host.virtualization();
        LicenceFacts licence = steps.run("licence", new LicenceFacts(LicenceVerdict.UNKNOWN, null, false, null),
                problems -> LicenceAssessment.assess(new LicenceAssessment.Input(
                        cpu, pci, pciRead, qat.devices(), qat.software(), virtualization, "windows")));
        return new HostInventory(host, qat, licence, steps.statuses());
    }

    private static HostFacts hostFacts(WindowsHostReader.WindowsHostReading r, List<PciDevice> pci) {
        Set<String> vendors = pci.stream().map(PciDevice::vendorId).collect(Collectors.toSet());
        String manufacturer = r.system() == null ? null : r.system().manufacturer();
        String model = r.system() == null ? null : r.system().model();
        String virtualization = Virtualization.detect(
                new Virtualization.Signals(r.cpu(), manufacturer, model, r.biosVendor(), vendors));
        CpuInfo cpu = r.cpu();
        HostFacts.Cpu cpuFacts = cpu.vendor() == null && cpu.model() == null ? null
                : new HostFacts.Cpu(cpu.vendor(), cpu.model(), cpu.sockets(), cpu.logicalCores());
        return new HostFacts(r.hostname(), cpuFacts, r.system(), virtualization, r.os(), null);
    }
}
