package io.qatwatch.protocol;

import java.util.List;

/**
 * The QAT software stack found on the host: drivers, kernel modules, firmware, user-space libraries,
 * services and device nodes. Empty lists mean "looked, found none".
 */
public record QatSoftware(
        List<SoftwareItem> drivers,
        List<SoftwareItem> kernelModules,
        List<SoftwareItem> firmware,
        List<SoftwareItem> libraries,
        List<SoftwareItem> services,
        List<SoftwareItem> deviceNodes,
        List<String> zlibAccelEngines) {

    public QatSoftware {
        drivers = copy(drivers);
        kernelModules = copy(kernelModules);
        firmware = copy(firmware);
        libraries = copy(libraries);
        services = copy(services);
        deviceNodes = copy(deviceNodes);
        zlibAccelEngines = zlibAccelEngines == null ? List.of() : List.copyOf(zlibAccelEngines);
    }

    /** An empty stack: nothing found. */
    public static QatSoftware none() {
        return new QatSoftware(null, null, null, null, null, null, null);
    }

    /** True when any QAT driver, module, library or service is present (firmware files alone do not count). */
    public boolean anyInstalled() {
        return !drivers.isEmpty() || !kernelModules.isEmpty() || !libraries.isEmpty() || !services.isEmpty();
    }

    private static List<SoftwareItem> copy(List<SoftwareItem> items) {
        return items == null ? List.of() : List.copyOf(items);
    }

    /** One piece of software: its name, where it was found, its version when known, and a state if any. */
    public record SoftwareItem(String name, String path, String version, String state) {
    }
}
