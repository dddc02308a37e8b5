package io.qatwatch.protocol;

/** The licence verdict, in the order DESIGN.md fixes: the first that matches wins. */
public enum LicenceVerdict {
    /** A QAT PCI function (PF or VF) is present. */
    INTEL_QAT_HARDWARE,
    /** The CPU is Intel's. */
    INTEL_CPU,
    /** A physical (not emulated) Intel PCI component, e.g. an Intel NIC in an AMD server. */
    INTEL_COMPONENT_ONLY,
    /** Only Intel devices that a hypervisor emulates (440BX, PIIX, e1000 in a VM). */
    INTEL_EMULATED_DEVICE_ONLY,
    /** No Intel component found. */
    NO_INTEL_COMPONENT,
    /** The host could not be probed well enough to say. */
    UNKNOWN
}
