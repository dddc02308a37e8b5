package io.qatwatch.agent.probe.qat;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.host.LinuxRoot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Lists every PCI function under {@code sys/bus/pci/devices} of a Linux root, named from {@code pci.ids} when present. */
public final class LinuxPciReader {

    static final String DEVICES = "sys/bus/pci/devices";
    /** Where distributions keep the PCI ID database, in the order it is looked for. */
    public static final List<String> PCI_IDS = List.of(
            "usr/share/misc/pci.ids", "usr/share/hwdata/pci.ids", "usr/share/pci.ids");

    private final LinuxRoot root;
    /**
     * The names {@code pci.ids} gave for the ids last wanted: a daemon probes the same devices every cycle, and a
     * distribution's {@code pci.ids} is over a megabyte to read and split. Looked up again only when the devices
     * change; not kept after a failed read, so that the problem is reported again.
     */
    private volatile PciNames known;

    /** The names {@code pci.ids} has for {@code wanted}; {@code names} is null when no {@code pci.ids} was found. */
    private record PciNames(Set<String> wanted, Map<String, String> names) {
    }

    /** A reader for one root; keep it for the root's life, so that {@code pci.ids} is parsed once. */
    public LinuxPciReader(LinuxRoot root) {
        this.root = root;
    }

    /** The functions found; a missing {@code sys/bus/pci/devices} or an unreadable entry is a problem. */
    public List<PciDevice> read(ProbeProblems problems) {
        if (!root.isFolder(DEVICES)) {
            problems.add(LinuxRoot.display(DEVICES) + " not found: cannot list PCI devices (is /sys mounted?)");
            return List.of();
        }
        List<String> addresses;
        try {
            addresses = root.list(DEVICES);
        } catch (IOException e) {
            problems.cannotRead(LinuxRoot.display(DEVICES), e);
            return List.of();
        }
        List<PciDevice> devices = new ArrayList<>();
        for (String address : addresses) {
            readDevice(address, problems).ifPresent(devices::add);
        }
        return named(devices, problems);
    }

    private Optional<PciDevice> readDevice(String address, ProbeProblems problems) {
        String at = DEVICES + "/" + address + "/";
        if (!root.isFolder(DEVICES + "/" + address)) {
            problems.add("cannot read " + LinuxRoot.display(DEVICES + "/" + address)
                    + ": it does not lead to a device folder (a dangling link?); skipped");
            return Optional.empty();
        }
        try {
            String vendor = root.readLine(at + "vendor").orElse(null);
            String device = root.readLine(at + "device").orElse(null);
            String vendorId = PciDevice.hexId(vendor, 4);
            String deviceId = PciDevice.hexId(device, 4);
            if (vendorId == null || deviceId == null) {
                problems.add(LinuxRoot.display(DEVICES + "/" + address) + ": no vendor or device id (vendor="
                        + vendor + ", device=" + device + "); skipped");
                return Optional.empty();
            }
            String classCode = PciDevice.hexId(root.readLine(at + "class").orElse(null), 6);
            String driver = root.linkTargetName(at + "driver").orElse(null);
            return Optional.of(new PciDevice(address, vendorId, deviceId, classCode, driver, null));
        } catch (IOException e) {
            problems.cannotRead(LinuxRoot.display(DEVICES + "/" + address), e);
            return Optional.empty();
        }
    }

    private List<PciDevice> named(List<PciDevice> devices, ProbeProblems problems) {
        Set<String> wanted = devices.stream().map(PciDevice::pciId).collect(Collectors.toSet());
        PciNames names = known;
        if (names == null || !names.wanted().equals(wanted)) {
            names = lookUp(wanted, problems);
            if (names == null) {
                return devices;
            }
            known = names;
        }
        Map<String, String> found = names.names();
        return found == null ? devices : devices.stream().map(d -> d.withName(found.get(d.pciId()))).toList();
    }

    /** The first {@code pci.ids} found, parsed for {@code wanted}; null when one could not be read (a problem). */
    private PciNames lookUp(Set<String> wanted, ProbeProblems problems) {
        boolean failed = false;
        for (String candidate : PCI_IDS) {
            Optional<String> text;
            try {
                text = root.read(candidate);
            } catch (IOException e) {
                problems.cannotRead(LinuxRoot.display(candidate), e);
                failed = true;
                continue;
            }
            if (text.isPresent()) {
                return new PciNames(Set.copyOf(wanted), PciIds.names(text.get(), wanted));
            }
        }
        return failed ? null : new PciNames(Set.copyOf(wanted), null);
    }
}
