package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.protocol.HostFacts;

/** Reads CPU, BIOS system identity, OS and computer name from the registry. */
public final class WindowsHostReader {

    static final String CPUS = "HARDWARE\\DESCRIPTION\\System\\CentralProcessor";
    static final String CPU0 = CPUS + "\\0";
    static final String BIOS = "HARDWARE\\DESCRIPTION\\System\\BIOS";
    static final String CURRENT_VERSION = "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
    static final String COMPUTER_NAME = "SYSTEM\\CurrentControlSet\\Control\\ComputerName\\ComputerName";

    private final RegistryView registry;

    public WindowsHostReader(RegistryView registry) {
        this.registry = registry;
    }

    /** The reading; a missing CPU key is a problem (the verdict needs the CPU), a missing BIOS key is not. */
    public HostReading read(ProbeProblems problems) {
        String vendor = registry.string(CPU0, "VendorIdentifier");
        String model = registry.string(CPU0, "ProcessorNameString");
        if (vendor == null && model == null) {
            problems.add("registry key HKLM\\" + CPU0 + " not found or empty: the CPU is unknown");
        }
        int logical = registry.subKeys(CPUS).size();
        CpuInfo cpu = new CpuInfo(vendor, model, null, logical == 0 ? null : logical, false);
        String manufacturer = registry.string(BIOS, "SystemManufacturer");
        String product = registry.string(BIOS, "SystemProductName");
        HostFacts.SystemInfo system = manufacturer == null && product == null
                ? null : new HostFacts.SystemInfo(manufacturer, product);
        return new HostReading(registry.string(COMPUTER_NAME, "ComputerName"), cpu, system,
                registry.string(BIOS, "BIOSVendor"), os(), null);
    }

    private HostFacts.OperatingSystem os() {
        String name = registry.string(CURRENT_VERSION, "ProductName");
        Integer major = registry.dword(CURRENT_VERSION, "CurrentMajorVersionNumber");
        Integer minor = registry.dword(CURRENT_VERSION, "CurrentMinorVersionNumber");
        String build = registry.string(CURRENT_VERSION, "CurrentBuild");
        String version = major == null || minor == null ? build
                : major + "." + minor + (build == null ? "" : "." + build);
        return new HostFacts.OperatingSystem("windows", name, version);
    }

}
