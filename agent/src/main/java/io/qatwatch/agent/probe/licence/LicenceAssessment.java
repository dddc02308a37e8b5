package io.qatwatch.agent.probe.licence;

import io.qatwatch.agent.probe.host.CpuInfo;
import io.qatwatch.agent.probe.host.Virtualization;
import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.agent.probe.qat.QatDevices;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceFacts.ComponentKind;
import io.qatwatch.protocol.LicenceFacts.IntelComponent;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatDevice.PciFunction;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Decides the licence verdict in DESIGN.md's order (QAT hardware, Intel CPU, a physical Intel component,
 * only emulated Intel devices, none) and writes notes a DBA can act on. Facts and the clause, no legal advice. Pure.
 */
public final class LicenceAssessment {

    static final String CLAUSE = "the Intel driver licence covers use \"in conjunction with (a) physical Intel"
            + " component products, and (b) virtual ('emulated') devices designed to appear as Intel component"
            + " products to a Guest operating system\"";

    private LicenceAssessment() {
    }

    /**
     * What the verdict is decided from.
     *
     * @param cpu            the CPU, null when it could not be read
     * @param pci            every PCI function found
     * @param pciRead        whether the PCI devices could be listed
     * @param virtualization the hypervisor, null on bare metal
     * @param osFamily       {@code linux} or {@code windows}
     */
    public record Input(
            CpuInfo cpu,
            List<PciDevice> pci,
            boolean pciRead,
            List<QatDevice> qatDevices,
            QatSoftware software,
            String virtualization,
            String osFamily) {
    }

    public static LicenceFacts assess(Input in) {
        List<IntelComponent> components = components(in);
        boolean softwareInstalled = in.software() != null && in.software().anyInstalled();
        LicenceVerdict verdict = verdict(in, components);
        List<String> notes = new ArrayList<>(notes(in, verdict, components, softwareInstalled));
        if ("windows".equals(in.osFamily()) && in.virtualization() != null
                && !Virtualization.HYPER_V.equals(in.virtualization())) {
            notes.add(in.virtualization() + ": Intel's QAT driver for Windows supports Hyper-V only (QAT virtual"
                    + " functions passed to Hyper-V guests); SQL Server in this guest can use QAT_DEFLATE in software mode at most.");
        }
        return new LicenceFacts(verdict, components, softwareInstalled, notes);
    }

    static LicenceVerdict verdict(Input in, List<IntelComponent> components) {
        if (!in.qatDevices().isEmpty()) {
            return LicenceVerdict.INTEL_QAT_HARDWARE;
        }
        if (in.cpu() != null && in.cpu().intel()) {
            return LicenceVerdict.INTEL_CPU;
        }
        if (components.stream().anyMatch(c -> c.kind() != ComponentKind.CPU && !c.emulated())) {
            return LicenceVerdict.INTEL_COMPONENT_ONLY;
        }
        if (components.stream().anyMatch(IntelComponent::emulated)) {
            return LicenceVerdict.INTEL_EMULATED_DEVICE_ONLY;
        }
        boolean cpuKnown = in.cpu() != null && in.cpu().vendor() != null;
        return cpuKnown && in.pciRead() ? LicenceVerdict.NO_INTEL_COMPONENT : LicenceVerdict.UNKNOWN;
    }

    /** The CPU when it is Intel's, then each distinct Intel PCI part (eight identical QAT PFs are one entry). */
    static List<IntelComponent> components(Input in) {
        List<IntelComponent> components = new ArrayList<>();
        if (in.cpu() != null && in.cpu().intel()) {
            components.add(new IntelComponent(ComponentKind.CPU, null,
                    in.cpu().model() == null ? CpuInfo.INTEL : in.cpu().model(), false));
        }
        // Keyed by text rather than by the record: a record's equals/hashCode bootstrap costs a one-shot probe ~100 ms.
        Set<String> seen = new HashSet<>();
        for (PciDevice device : in.pci()) {
            if (device.intel()) {
                IntelComponent c = IntelComponents.of(device, in.virtualization());
                if (seen.add(c.kind() + "|" + c.pciId() + "|" + c.description() + "|" + c.emulated())) {
                    components.add(c);
                }
            }
        }
        return List.copyOf(components);
    }

    private static List<String> notes(Input in, LicenceVerdict verdict, List<IntelComponent> components,
            boolean softwareInstalled) {
        List<String> notes = new ArrayList<>();
        switch (verdict) {
            case INTEL_QAT_HARDWARE -> {
                long pf = in.qatDevices().stream().filter(d -> d.function() == PciFunction.PF).count();
                long vf = in.qatDevices().size() - pf;
                notes.add("Intel QAT hardware present (" + functions(pf, vf) + "): the QAT driver is used with an Intel component.");
                if (pf == 0 && in.virtualization() != null) {
                    notes.add("Only QAT virtual functions passed through to this " + in.virtualization()
                            + " guest: the physical QAT device and its firmware are managed on the host.");
                }
                List<String> disabled = in.qatDevices().stream().filter(QatDevices::disabledInWindows)
                        .map(QatDevice::address).toList();
                if (!disabled.isEmpty()) {
                    notes.add((disabled.size() == 1 ? "QAT function disabled in Device Manager: "
                            : disabled.size() + " QAT functions disabled in Device Manager: ") + String.join(", ", disabled)
                            + "; SQL Server cannot use " + (disabled.size() == 1 ? "it" : "them")
                            + " for QAT_DEFLATE in hardware mode until enabled.");
                }
            }
            case INTEL_CPU -> {
                notes.add("Intel CPU (" + nonNull(in.cpu().model()) + "): the QAT software is used with an Intel component.");
                notes.add("No QAT device: SQL Server can use QAT_DEFLATE in software mode only (QATzip with ISA-L on the CPU).");
            }
            case INTEL_COMPONENT_ONLY -> notes.add((softwareInstalled ? "QAT software installed (" + installed(in.software())
                    + ") on a host whose CPU is not Intel's" : "The CPU is not Intel's")
                    + "; the only physical Intel components are " + physical(components)
                    + ". Whether that makes QAT software-mode use licensed is a grey zone: " + CLAUSE
                    + ". Ask Intel or your counsel; qatwatch gives no legal advice.");
            case INTEL_EMULATED_DEVICE_ONLY -> notes.add("Only Intel devices that " + nonNull(in.virtualization())
                    + " emulates (" + ids(components) + ")" + (softwareInstalled
                    ? " next to installed QAT software (" + installed(in.software()) + ")" : "")
                    + ": " + CLAUSE + ". Clause (b) names such emulated devices.");
            case NO_INTEL_COMPONENT -> notes.add(softwareInstalled
                    ? (in.software().drivers().isEmpty() && in.software().kernelModules().isEmpty()
                            ? "QAT software installed" : "QAT driver installed")
                            + " (" + installed(in.software()) + "), no Intel component found: outside the driver licence ("
                            + CLAUSE + "). Remove it, or use MS_XPRESS or ZSTD backup compression."
                    : "No Intel component found: QAT cannot be used here under Intel's driver licence; use MS_XPRESS or ZSTD backup compression.");
            case UNKNOWN -> notes.add("The CPU or the PCI devices could not be read (see probes): the verdict needs both.");
            default -> throw new IllegalStateException("verdict " + verdict);
        }
        return notes;
    }

    private static String functions(long pf, long vf) {
        List<String> parts = new ArrayList<>();
        if (pf > 0) {
            parts.add(pf + (pf == 1 ? " physical function" : " physical functions"));
        }
        if (vf > 0) {
            parts.add(vf + (vf == 1 ? " virtual function" : " virtual functions"));
        }
        return String.join(", ", parts);
    }

    private static String physical(List<IntelComponent> components) {
        return String.join(", ", components.stream()
                .filter(c -> c.kind() != ComponentKind.CPU && !c.emulated())
                .map(c -> c.kind() + " " + c.pciId() + " " + c.description())
                .toList());
    }

    private static String ids(List<IntelComponent> components) {
        return String.join(", ", components.stream().filter(IntelComponent::emulated).map(IntelComponent::pciId).toList());
    }

    private static String installed(QatSoftware software) {
        return String.join(", ", Stream.of(software.drivers(), software.kernelModules(), software.libraries(),
                        software.services())
                .flatMap(List::stream).map(SoftwareItem::name).distinct().toList());
    }

    private static String nonNull(String value) {
        return value == null ? "unknown" : value;
    }
}
