package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.protocol.HostFacts;
import java.util.Locale;
import oshi.SystemInfo;
import oshi.hardware.HardwareAbstractionLayer;
import oshi.software.os.OperatingSystem;

/**
 * Facts OSHI reads from the live machine (host name, OS, memory, hypervisor). They only fill gaps the
 * root or the registry left, never replace what those said.
 */
public record OshiFacts(String hostname, HostFacts.OperatingSystem os, Long memoryBytes, String virtualization) {

    /** Nothing learnt. */
    public static final OshiFacts NONE = new OshiFacts(null, null, null, null);

    /**
     * Whether OSHI could add something: it costs seconds (native access, a scan of NICs), so it is asked only
     * when the CPU says "hypervisor" but nothing named it, or the host name or OS is unknown. On bare metal
     * the root already said all OSHI could.
     */
    public static boolean worthAsking(HostFacts facts) {
        return Virtualization.UNKNOWN.equals(facts.virtualization()) || facts.hostname() == null
                || facts.os() == null || facts.os().name() == null;
    }

    /** The facts with the physical memory the JVM reports, when they have none (Windows: not in the registry). */
    public static HostFacts withJvmMemory(HostFacts facts) {
        if (facts.memoryBytes() != null) {
            return facts;
        }
        long total = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getTotalMemorySize();
        return new HostFacts(facts.hostname(), facts.cpu(), facts.system(), facts.virtualization(), facts.os(),
                total > 0 ? total : null);
    }

    /** Reads the live machine; a failure (no native access, an unsupported OS) is a problem, not a crash. */
    public static OshiFacts readLive(String osFamily, ProbeProblems problems) {
        try {
            SystemInfo info = new SystemInfo();
            HardwareAbstractionLayer hal = info.getHardware();
            OperatingSystem os = info.getOperatingSystem();
            String version = os.getVersionInfo() == null ? null : os.getVersionInfo().getVersion();
            String build = os.getVersionInfo() == null ? null : os.getVersionInfo().getBuildNumber();
            return new OshiFacts(
                    os.getNetworkParams().getHostName(),
                    new HostFacts.OperatingSystem(osFamily, os.getFamily() + (version == null ? "" : " " + version),
                            build == null ? version : build),
                    hal.getMemory().getTotal(),
                    hal.getVirtualization().map(OshiFacts::hypervisorName).orElse(null));
        } catch (RuntimeException | LinkageError e) {
            problems.add("OSHI could not read the live machine: " + e);
            return NONE;
        }
    }

    /** OSHI's names ({@code Microsoft Hyper-V}, {@code VMware}, {@code KVM}) in the spelling of {@link Virtualization}. */
    static String hypervisorName(String oshiName) {
        String name = oshiName.toLowerCase(Locale.ROOT);
        if (name.contains("vmware")) {
            return Virtualization.VMWARE;
        }
        if (name.contains("hyper-v")) {
            return Virtualization.HYPER_V;
        }
        if (name.contains("kvm") || name.contains("qemu")) {
            return Virtualization.KVM;
        }
        if (name.contains("xen")) {
            return Virtualization.XEN;
        }
        if (name.contains("virtualbox")) {
            return Virtualization.VIRTUALBOX;
        }
        if (name.contains("parallels")) {
            return Virtualization.PARALLELS;
        }
        return oshiName;
    }

    /** The facts with this one's filling only the nulls (and an {@code Unknown} hypervisor). */
    public HostFacts fillGaps(HostFacts facts) {
        String virt = facts.virtualization() == null || Virtualization.UNKNOWN.equals(facts.virtualization())
                ? (virtualization != null ? virtualization : facts.virtualization()) : facts.virtualization();
        HostFacts.OperatingSystem mergedOs = facts.os();
        if (os != null && (mergedOs == null || mergedOs.name() == null)) {
            mergedOs = os;
        }
        return new HostFacts(facts.hostname() != null ? facts.hostname() : hostname, facts.cpu(), facts.system(),
                virt, mergedOs, facts.memoryBytes() != null ? facts.memoryBytes() : memoryBytes);
    }
}
