package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.ProbeSteps;
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
import java.util.function.Function;

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
            return new HostInventory(HostReading.NO_FACTS,
                    new QatFacts(List.of(), QatSoftware.none(), false),
                    new LicenceFacts(LicenceVerdict.UNKNOWN, null, false,
                            List.of("The registry could not be read (see probes): the verdict needs the CPU and the PCI devices.")),
                    steps.statuses());
        }
        HostReading reading = steps.run("host", null, new WindowsHostReader(view)::read);
        List<PciDevice> pci = steps.run("pci", List.of(), new WindowsPciReader(view)::read);
        HostFacts host = reading == null ? HostReading.NO_FACTS : reading.toFacts(pci);
        if (live) {
            host = OshiFacts.withJvmMemory(host);
        }
        if (live && OshiFacts.worthAsking(host)) {
            host = steps.run("oshi", OshiFacts.NONE, problems -> OshiFacts.readLive("windows", problems)).fillGaps(host);
        }
        return InventoryTail.qatAndLicence(steps, host, reading, pci,
                problems -> new WindowsQatReader(view, libraries).read(pci, problems), "windows");
    }
}
