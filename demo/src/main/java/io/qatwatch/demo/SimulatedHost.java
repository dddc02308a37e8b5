package io.qatwatch.demo;

import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.host.RegistryView;
import io.qatwatch.agent.probe.host.WindowsHostInventoryProbe;
import io.qatwatch.agent.probe.qat.WindowsLibraries;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A simulated Windows host of the demo: the registry keys the agent's Windows probe reads (CPU, BIOS, OS, computer
 * name, PCI devices, QAT driver services) held in memory, and the QAT library files SQL Server would load. The
 * agent's own probe reads them, so the verdicts are the agent's, not the demo's.
 */
final class SimulatedHost {

    /** A PCI function: vendor and device id, class code, its description and the service it is bound to. */
    record Pci(String vendor, String device, String classCode, String description, String service) {
    }

    final String name;
    private final TreeMap<String, Map<String, Object>> keys = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final List<SoftwareItem> libraries = new ArrayList<>();

    SimulatedHost(String name, String cpuVendor, String cpuModel, int logicalCpus, String manufacturer, String model) {
        this.name = name;
        for (int i = 0; i < logicalCpus; i++) {
            key("HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\" + i, Map.of("VendorIdentifier", cpuVendor,
                    "ProcessorNameString", cpuModel));
        }
        key("HARDWARE\\DESCRIPTION\\System\\BIOS", Map.of("SystemManufacturer", manufacturer, "SystemProductName", model,
                "BIOSVendor", manufacturer));
        key("SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", Map.of("ProductName", "Windows Server 2022 Datacenter",
                "CurrentMajorVersionNumber", 10, "CurrentMinorVersionNumber", 0, "CurrentBuild", "20348"));
        key("SYSTEM\\CurrentControlSet\\Control\\ComputerName\\ComputerName", Map.of("ComputerName", name.toUpperCase(Locale.ROOT)));
    }

    SimulatedHost pci(Pci device, int instance) {
        String hardwareId = "VEN_" + device.vendor() + "&DEV_" + device.device() + "&SUBSYS_00008086&REV_00";
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("DeviceDesc", device.description());
        values.put("CompatibleIDs", List.of("PCI\\VEN_" + device.vendor() + "&DEV_" + device.device(),
                "PCI\\VEN_" + device.vendor() + "&CC_" + device.classCode(), "PCI\\CC_" + device.classCode()));
        if (device.service() != null) {
            values.put("Service", device.service());
        }
        key("SYSTEM\\CurrentControlSet\\Enum\\PCI\\" + hardwareId + "\\4&demo&0&" + instance, values);
        return this;
    }

    /** A driver service, e.g. {@code icp_qat4} started on demand (3). */
    SimulatedHost service(String name, String imagePath, int start) {
        key("SYSTEM\\CurrentControlSet\\Services\\" + name, Map.of("ImagePath", imagePath, "Start", start));
        return this;
    }

    /** A QAT library file SQL Server loads, e.g. {@code qatzip.dll}. */
    SimulatedHost library(String file, String path, String version) {
        libraries.add(new SoftwareItem(file, path, version, null));
        return this;
    }

    private void key(String path, Map<String, Object> values) {
        keys.put(path, new LinkedHashMap<>(values));
    }

    /** The agent's Windows host probe reading this host. */
    HostInventoryProbe probe() {
        RegistryView registry = new RegistryView() {
            @Override
            public List<String> subKeys(String path) {
                String prefix = path.toUpperCase(Locale.ROOT) + "\\";
                List<String> names = new ArrayList<>();
                for (String key : keys.keySet()) {
                    if (key.toUpperCase(Locale.ROOT).startsWith(prefix)) {
                        String rest = key.substring(prefix.length());
                        String child = rest.contains("\\") ? rest.substring(0, rest.indexOf('\\')) : rest;
                        if (!names.contains(child)) {
                            names.add(child);
                        }
                    }
                }
                return names;
            }

            @Override
            public Map<String, Object> values(String path) {
                return keys.getOrDefault(path, Map.of());
            }
        };
        WindowsLibraries files = problems -> List.copyOf(libraries);
        return new WindowsHostInventoryProbe(problems -> registry, files, false, "the demo's simulated host " + name);
    }
}
