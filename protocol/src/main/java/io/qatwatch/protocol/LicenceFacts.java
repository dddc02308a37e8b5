package io.qatwatch.protocol;

import java.util.List;

/**
 * The licence posture of the host against the Intel QAT driver licence ("for use with Intel component
 * products"). Facts and the clause only: qatwatch gives no legal advice.
 */
public record LicenceFacts(
        LicenceVerdict verdict,
        List<IntelComponent> intelComponents,
        boolean qatSoftwareInstalled,
        List<String> notes) {

    public LicenceFacts {
        intelComponents = intelComponents == null ? List.of() : List.copyOf(intelComponents);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** An Intel part found on the host, and whether a hypervisor emulates it. */
    public record IntelComponent(ComponentKind kind, String pciId, String description, boolean emulated) {
    }

    /** What kind of Intel part it is. */
    public enum ComponentKind { CPU, QAT, NIC, STORAGE, CHIPSET, OTHER }
}
