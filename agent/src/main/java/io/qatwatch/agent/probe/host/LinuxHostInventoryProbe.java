package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.ProbeSteps;
import io.qatwatch.agent.probe.qat.LinuxPciReader;
import io.qatwatch.agent.probe.qat.LinuxQatReader;
import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.protocol.HostFacts;
import java.util.List;

/**
 * The Linux host probe: everything from a root folder ({@code /} live, or {@code --root DIR}); on the live
 * machine OSHI may add what the root did not say (never the other way round).
 */
public final class LinuxHostInventoryProbe implements HostInventoryProbe {

    private final LinuxRoot root;
    private final boolean live;
    /** Kept across collections: it parses {@code pci.ids} once for the probe's life. */
    private final LinuxPciReader pciReader;
    /** Kept across collections: it lists the library folders again only when they changed. */
    private final LinuxQatReader qatReader;

    /** @param live whether the root is this machine's {@code /}, so that OSHI may fill gaps */
    public LinuxHostInventoryProbe(LinuxRoot root, boolean live) {
        this.root = root;
        this.live = live;
        this.pciReader = new LinuxPciReader(root);
        this.qatReader = new LinuxQatReader(root);
    }

    @Override
    public HostInventory collect() {
        ProbeSteps steps = new ProbeSteps(live ? "run qatwatch as a user that can read /proc and /sys"
                : "check that " + root.folder() + " holds a copy of a Linux root (proc/, sys/, lib/ ...)");
        HostReading reading = steps.run("host", null, new LinuxHostReader(root)::read);
        List<PciDevice> pci = steps.run("pci", List.of(), pciReader::read);
        HostFacts host = reading == null ? HostReading.NO_FACTS : reading.toFacts(pci);
        if (live && OshiFacts.worthAsking(host)) {
            host = steps.run("oshi", OshiFacts.NONE, problems -> OshiFacts.readLive("linux", problems)).fillGaps(host);
        }
        return InventoryTail.qatAndLicence(steps, host, reading, pci,
                problems -> qatReader.read(pci, problems), "linux");
    }
}
