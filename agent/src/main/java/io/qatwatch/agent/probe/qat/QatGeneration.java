package io.qatwatch.agent.probe.qat;

import io.qatwatch.protocol.QatDevice.PciFunction;
import java.util.Map;
import java.util.Optional;

/** The QAT device families by PCI id (vendor 8086), PF and VF, as DESIGN.md lists them. */
public enum QatGeneration {
    DH895XCC("dh895xcc", "0435", "0443", false),
    C62X("c62x", "37c8", "37c9", false),
    C3XXX("c3xxx", "19e2", "19e3", false),
    GEN4_4XXX("4xxx", "4940", "4941", true),
    GEN4_401XX("401xx", "4942", "4943", true),
    GEN4_402XX("402xx", "4944", "4945", true),
    GEN4_420XX("420xx", "4946", "4947", true),
    GEN6_6XXX("6xxx", "4948", "4949", true);

    private final String label;
    private final String pfDeviceId;
    private final String vfDeviceId;
    private final boolean exposesState;

    QatGeneration(String label, String pfDeviceId, String vfDeviceId, boolean exposesState) {
        this.label = label;
        this.pfDeviceId = pfDeviceId;
        this.vfDeviceId = vfDeviceId;
        this.exposesState = exposesState;
    }

    /** The name used in reports: {@code 4xxx}, {@code c62x}, ... */
    public String label() {
        return label;
    }

    /** Gen4 and later: the kernel exposes {@code qat/state} and {@code qat/cfg_services} on PFs. */
    public boolean exposesState() {
        return exposesState;
    }

    /** A QAT function recognised by its PCI id. */
    public record Match(QatGeneration generation, PciFunction function) {
    }

    private static final Map<String, Match> BY_DEVICE_ID = index();

    private static Map<String, Match> index() {
        Map<String, Match> map = new java.util.HashMap<>();
        for (QatGeneration g : values()) {
            map.put(g.pfDeviceId, new Match(g, PciFunction.PF));
            map.put(g.vfDeviceId, new Match(g, PciFunction.VF));
        }
        return Map.copyOf(map);
    }

    public static Optional<Match> of(PciDevice device) {
        if (!device.intel()) {
            return Optional.empty();
        }
        return Optional.ofNullable(BY_DEVICE_ID.get(device.deviceId()));
    }

    /** The name shown when no {@code pci.ids} or device description names the device. */
    public String defaultName(PciFunction function) {
        return "Intel QAT " + label + (function == PciFunction.VF ? " virtual function" : "");
    }
}
