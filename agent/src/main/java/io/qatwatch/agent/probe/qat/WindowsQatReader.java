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
 * Reads QAT on Windows: devices from the enumerated PCI functions, the QAT driver services
 * ({@code icp_qat4} for QAT 2.0, {@code icp_qat} for QAT 1.x, ...) with their start type and the installed
 * driver version, and the libraries SQL Server loads (live only).
 */
public final class WindowsQatReader {

    static final String SERVICES = "SYSTEM\\CurrentControlSet\\Services";
    static final String DRIVER_CLASSES = "SYSTEM\\CurrentControlSet\\Control\\Class";
    static final Pattern QAT_SERVICE = Pattern.compile("(?i)icp_qat.*|cfqat|cpmprovuser");

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
                devices.add(QatDevices.toQatDevice(d, match, null, List.of()));
                String version = driverVersion(d);
                if (d.driver() != null && version != null) {
                    driverVersions.putIfAbsent(d.driver(), version);
                }
            });
        }
        List<SoftwareItem> drivers = new ArrayList<>();
        for (String service : registry.subKeys(SERVICES)) {
            if (QAT_SERVICE.matcher(service).matches()) {
                String key = SERVICES + "\\" + service;
                drivers.add(new SoftwareItem(service, registry.string(key, "ImagePath"), driverVersions.get(service),
                        startType(registry.dword(key, "Start"))));
            }
        }
        QatSoftware software = new QatSoftware(drivers, List.of(), List.of(), libraries.find(problems), List.of(),
                List.of(), List.of());
        return new QatFacts(devices, software, QatDevices.compressionReady(devices));
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
