package io.qatwatch.agent.probe.qat;

import io.qatwatch.protocol.QatDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Turns PCI functions into QAT devices and decides whether any of them can compress. Pure. */
public final class QatDevices {

    /** Drivers that hand a function to user space (qatlib) rather than to a kernel QAT driver. */
    static final Set<String> USER_SPACE_DRIVERS = Set.of("vfio-pci", "qat_vfio_pci");

    private QatDevices() {
    }

    /** The QAT device for a PCI function, with state and services where the OS exposes them (null otherwise). */
    public static QatDevice toQatDevice(PciDevice pci, QatGeneration.Match match, String state, List<String> services) {
        String name = pci.name() != null ? pci.name() : match.generation().defaultName(match.function());
        return new QatDevice(pci.address(), pci.pciId(), match.function(), match.generation().label(), name,
                pci.driver(), state, services);
    }

    /** {@code sym;asym} or {@code dc} (as in {@code qat/cfg_services}) to its list of services. */
    static List<String> parseServices(String raw) {
        if (raw == null || raw.isBlank()) {
            return List.of();
        }
        return Arrays.stream(raw.strip().split("[;,\\s]+"))
                .map(s -> s.toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /**
     * Whether one device can compress: where the OS tells the state (Gen4+ on Linux), it must be {@code up}
     * with {@code dc} among its services; where it does not (older generations, VFs, Windows), a bound driver.
     */
    public static boolean canCompress(QatDevice device) {
        if (device.state() != null) {
            return "up".equals(device.state()) && device.services().contains("dc");
        }
        return device.driver() != null;
    }

    public static boolean compressionReady(List<QatDevice> devices) {
        return devices.stream().anyMatch(QatDevices::canCompress);
    }

    /** Why no device can compress, in words a DBA can act on; null when one can or there is no device. */
    public static String whyNotReady(List<QatDevice> devices) {
        if (devices.isEmpty() || compressionReady(devices)) {
            return null;
        }
        List<String> reasons = new ArrayList<>();
        for (QatDevice d : devices) {
            if (d.state() != null && !"up".equals(d.state())) {
                reasons.add(d.address() + " is " + d.state() + " (echo up > qat/state)");
            } else if (d.state() != null) {
                reasons.add(d.address() + " runs " + (d.services().isEmpty() ? "unknown services"
                        : String.join(";", d.services())) + " without dc (set qat/state down, write dc to qat/cfg_services, set it up)");
            } else {
                reasons.add(d.address() + " has no driver bound");
            }
        }
        return String.join("; ", reasons);
    }
}
