package io.qatwatch.agent.probe.licence;

import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.agent.probe.qat.QatGeneration;
import io.qatwatch.protocol.LicenceFacts.ComponentKind;
import io.qatwatch.protocol.LicenceFacts.IntelComponent;
import java.util.Set;

/** Classifies Intel PCI functions by kind and tells which ones hypervisors emulate. Pure. */
public final class IntelComponents {

    /**
     * Intel device ids that hypervisors present to guests: the 440FX/PIIX3 and 440BX/PIIX4 chipsets (QEMU,
     * VMware, Hyper-V generation 1, VirtualBox), QEMU's Q35/ICH9 parts, the e1000/e1000e NICs, ICH audio and
     * the PCIe host bridge of Cloud Hypervisor and Firecracker.
     */
    static final Set<String> EMULATED_IN_VMS = Set.of(
            "1237", "7000", "7010", "7020", "7110", "7111", "7112", "7113", "7190", "7191", "7192",
            "29c0", "2918", "2922", "2930", "2934", "2935", "2936", "2937", "2938", "2939", "293a", "293c", "293e",
            "100e", "100f", "1004", "10d3", "1209", "1229",
            "2415", "2668", "25ab", "24cd", "0d57");

    private IntelComponents() {
    }

    public static ComponentKind kind(PciDevice device) {
        if (QatGeneration.of(device).isPresent()) {
            return ComponentKind.QAT;
        }
        String base = device.baseClass();
        if (base == null) {
            return ComponentKind.OTHER;
        }
        return switch (base) {
            case "02" -> ComponentKind.NIC;
            case "01" -> ComponentKind.STORAGE;
            case "06" -> ComponentKind.CHIPSET;
            default -> device.classCode().startsWith("0c05") ? ComponentKind.CHIPSET : ComponentKind.OTHER;
        };
    }

    /** Emulated when the host is a guest and the id is one that hypervisors present; a passed-through device is real. */
    public static boolean emulated(PciDevice device, String virtualization) {
        return virtualization != null && device.intel() && EMULATED_IN_VMS.contains(device.deviceId());
    }

    public static IntelComponent of(PciDevice device, String virtualization) {
        String description = device.name() != null ? device.name()
                : QatGeneration.of(device).map(m -> m.generation().defaultName(m.function()))
                        .orElse("Intel device " + device.pciId()
                                + (device.classCode() == null ? "" : " (class " + device.classCode() + ")"));
        return new IntelComponent(kind(device), device.pciId(), description, emulated(device, virtualization));
    }
}
