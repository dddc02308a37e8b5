package io.qatwatch.agent.probe.host;

/**
 * The CPU as the OS describes it.
 *
 * @param vendor       CPUID vendor string ({@code GenuineIntel}, {@code AuthenticAMD}), null when unknown
 * @param hypervisor   the CPU reports that it runs under a hypervisor (the {@code hypervisor} flag)
 */
public record CpuInfo(String vendor, String model, Integer sockets, Integer logicalCores, boolean hypervisor) {

    public static final String INTEL = "GenuineIntel";

    public boolean intel() {
        return INTEL.equals(vendor);
    }
}
