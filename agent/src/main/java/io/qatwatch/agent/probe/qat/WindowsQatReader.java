package io.qatwatch.agent.probe.qat;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.host.RegistryView;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads QAT on Windows: devices from the enumerated PCI functions (a device disabled in Device Manager is
 * {@code down}), the QAT driver services ({@code icp_qat4} for QAT 2.0, {@code icp_qat} for QAT 1.x, ...)
 * with their start type and the installed driver version, and the libraries SQL Server loads (live only).
 */
public final class WindowsQatReader {

    static final String SERVICES = "SYSTEM\\CurrentControlSet\\Services";
    static final String DRIVER_CLASSES = "SYSTEM\\CurrentControlSet\\Control\\Class";
    static final Pattern QAT_SERVICE = Pattern.compile("(?i)icp_qat.*|cfqat|cpmprovuser");
    /** {@code CONFIGFLAG_DISABLED} of a device's {@code ConfigFlags} (cfg.h): disabled in Device Manager. */
    static final int CONFIGFLAG_DISABLED = 0x1;

    private final RegistryView registry;
    private final WindowsLibraries libraries;

    public WindowsQatReader(RegistryView registry, WindowsLibraries libraries) {
        this.registry = registry;
        this.libraries = libraries;
    }

    public QatFacts read(List<PciDevice> pci, ProbeProblems problems) {
        List<QatDevice> devices = new ArrayList<>();
        Map<String, String> driverVersions = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (PciDevice d : pci) {
            QatGeneration.of(d).ifPresent(match -> {
                devices.add(QatDevices.toQatDevice(d, match, disabled(d) ? QatDevices.DOWN : null, List.of()));
                String version = driverVersion(d);
                if (d.driver() != null && version != null) {
                    driverVersions.putIfAbsent(d.driver(), version);
                }
            });
        }
        Map<String, SoftwareItem> drivers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String service : registry.subKeys(SERVICES)) {
            if (QAT_SERVICE.matcher(service).matches()) {
                String key = SERVICES + "\\" + service;
                drivers.put(service, new SoftwareItem(service, registry.string(key, "ImagePath"),
                        driverVersions.get(service), startType(registry.dword(key, "Start"))));
            }
        }
        // A device bound to a QAT driver shows the driver is installed, also when the export left out Services.
        for (QatDevice d : devices) {
            if (d.driver() != null && QAT_SERVICE.matcher(d.driver()).matches()) {
                drivers.putIfAbsent(d.driver(), new SoftwareItem(d.driver(), null, driverVersions.get(d.driver()), null));
            }
        }
        QatSoftware software = new QatSoftware(List.copyOf(drivers.values()), List.of(), List.of(),
                libraries.find(problems), List.of(), List.of(), List.of());
        return new QatFacts(devices, software, QatDevices.compressionReady(devices));
    }

    /**
     * Whether Windows has disabled the device: {@code CONFIGFLAG_DISABLED} in its {@code ConfigFlags}, or its
     * driver service runs no device ({@code Services\<driver>\Enum} says {@code Count} 0). Windows keeps the
     * {@code Service} of a disabled device, so the bound driver alone does not tell. A failed install
     * (0x40, 0x400) is not disabled: it leaves no {@code Service}, and shows as no driver bound.
     */
    private boolean disabled(PciDevice device) {
        Integer flags = registry.dword("SYSTEM\\CurrentControlSet\\Enum\\" + device.address(), "ConfigFlags");
        if (flags != null && (flags & CONFIGFLAG_DISABLED) != 0) {
            return true;
        }
        Integer running = device.driver() == null ? null
                : registry.dword(SERVICES + "\\" + device.driver() + "\\Enum", "Count");
        return running != null && running == 0;
    }

    /** {@code DriverVersion} of the device's driver key ({@code Control\Class\{guid}\0007}), null when absent. */
    private String driverVersion(PciDevice device) {
        String driverKey = registry.string("SYSTEM\\CurrentControlSet\\Enum\\" + device.address(), "Driver");
        return driverKey == null ? null : registry.string(DRIVER_CLASSES + "\\" + driverKey, "DriverVersion");
    }

    /** The service's {@code Start} value in words. */
    static String startType(Integer start) {
        if (start == null) {
            return null;
        }
        return switch (start) {
            case 0 -> "boot";
            case 1 -> "system";
            case 2 -> "automatic";
            case 3 -> "manual";
            case 4 -> "disabled";
            default -> "start " + start;
        };
    }
}
