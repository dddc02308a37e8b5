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
    /** A device that is not up: {@code qat/state} on Linux; on Windows, a device Windows has disabled. */
    public static final String DOWN = "down";

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
     * On Windows a device Windows has disabled is {@code down}.
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

    /** Whether Windows has disabled the device: Windows reports a state only for that, and names devices {@code PCI\...}. */
    public static boolean disabledInWindows(QatDevice device) {
        return DOWN.equals(device.state()) && device.address().regionMatches(true, 0, "PCI\\", 0, 4);
    }

    /** Why no device can compress, in words a DBA can act on; null when one can or there is no device. */
    public static String whyNotReady(List<QatDevice> devices) {
        if (devices.isEmpty() || compressionReady(devices)) {
            return null;
        }
        List<String> reasons = new ArrayList<>();
        for (QatDevice d : devices) {
            if (disabledInWindows(d)) {
                reasons.add(d.address() + " is disabled in Device Manager (enable it there, or run pnputil /enable-device \""
                        + d.address() + "\")");
            } else if (d.state() != null && !"up".equals(d.state())) {
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
