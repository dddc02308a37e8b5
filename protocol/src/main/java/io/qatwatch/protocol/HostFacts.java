package io.qatwatch.protocol;

/** The machine the agent runs on: CPU, system vendor, operating system and hypervisor, if any. */
public record HostFacts(
        String hostname,
        Cpu cpu,
        SystemInfo system,
        String virtualization,
        OperatingSystem os,
        Long memoryBytes) {

    /** CPU vendor id as the CPU reports it ({@code GenuineIntel}, {@code AuthenticAMD}) and its model name. */
    public record Cpu(String vendor, String model, Integer sockets, Integer logicalCores) {
    }

    /** System (DMI/BIOS) manufacturer and product name. */
    public record SystemInfo(String manufacturer, String model) {
    }

    /** Operating system family ({@code linux}, {@code windows}), name and version. */
    public record OperatingSystem(String family, String name, String version) {
    }
}
