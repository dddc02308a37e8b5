package io.qatwatch.agent.probe.host;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides which hypervisor, if any, the host runs under, from the strings firmware and CPU report and the
 * vendors of the PCI devices a hypervisor emulates. Pure.
 */
public final class Virtualization {

    public static final String VMWARE = "VMware";
    public static final String HYPER_V = "Hyper-V";
    public static final String KVM = "KVM";
    public static final String XEN = "Xen";
    public static final String VIRTUALBOX = "VirtualBox";
    public static final String PARALLELS = "Parallels";
    public static final String BHYVE = "bhyve";
    /** The CPU says it runs under a hypervisor, but nothing names it. */
    public static final String UNKNOWN = "Unknown";

    /**
     * EC2 bare-metal instance types: the size is {@code metal}, or {@code metal-<size>} where a family has
     * several bare-metal sizes ({@code m6i.metal}, {@code m7i.metal-24xl}, {@code m7i.metal-48xl}).
     */
    static final Pattern EC2_METAL = Pattern.compile("[a-z0-9-]+\\.metal(-[a-z0-9]+)?");

    private Virtualization() {
    }

    /**
     * What the host says about itself.
     *
     * @param pciVendorIds lower-case hex vendor ids of the host's PCI functions ({@code 15ad}, {@code 1af4})
     */
    public record Signals(
            CpuInfo cpu,
            String systemManufacturer,
            String systemModel,
            String biosVendor,
            Set<String> pciVendorIds) {
    }

    /** The hypervisor's name, or null for bare metal (as far as the signals tell). */
    public static String detect(Signals s) {
        String manufacturer = lower(s.systemManufacturer());
        String model = lower(s.systemModel());
        String bios = lower(s.biosVendor());
        String firmware = manufacturer + " | " + model + " | " + bios;
        boolean hypervisorFlag = s.cpu() != null && s.cpu().hypervisor();
        if (firmware.contains("vmware")) {
            return VMWARE;
        }
        if (manufacturer.contains("microsoft") && model.contains("virtual machine") || bios.contains("hyper-v")) {
            return HYPER_V;
        }
        if (manufacturer.contains("amazon ec2")) {
            // Nitro instances run on KVM; bare-metal types (*.metal, *.metal-48xl) have the same vendor string.
            return EC2_METAL.matcher(model.strip()).matches() && !hypervisorFlag ? null : KVM;
        }
        if (firmware.contains("xen")) {
            return XEN;
        }
        if (firmware.contains("qemu") || firmware.contains("kvm") || firmware.contains("bochs")
                || firmware.contains("seabios") || firmware.contains("openstack") || manufacturer.contains("google")
                || manufacturer.contains("alibaba cloud") || manufacturer.contains("tencent cloud")) {
            return KVM;
        }
        if (firmware.contains("innotek") || firmware.contains("virtualbox")) {
            return VIRTUALBOX;
        }
        if (firmware.contains("parallels")) {
            return PARALLELS;
        }
        if (firmware.contains("bhyve")) {
            return BHYVE;
        }
        Set<String> vendors = s.pciVendorIds() == null ? Set.of() : s.pciVendorIds();
        if (vendors.contains("15ad")) {
            return VMWARE;
        }
        if (vendors.contains("1414")) {
            return HYPER_V;
        }
        if (vendors.contains("5853")) {
            return XEN;
        }
        if (vendors.contains("80ee")) {
            return VIRTUALBOX;
        }
        String cpuModel = s.cpu() == null ? "" : lower(s.cpu().model());
        if (vendors.contains("1af4") || vendors.contains("1b36") || cpuModel.contains("qemu")
                || cpuModel.contains("kvm")) {
            return KVM;
        }
        return hypervisorFlag ? UNKNOWN : null;
    }

    private static String lower(String value) {
        return value == null ? "" : value.toLowerCase(Locale.ROOT);
    }
}
