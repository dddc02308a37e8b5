package io.qatwatch.protocol;

import java.util.List;

/**
 * One QAT PCI function.
 *
 * @param address    PCI address, {@code 0000:6b:00.0} on Linux, the device instance path on Windows
 * @param pciId      {@code vendor:device} in lower-case hex, e.g. {@code 8086:4940}
 * @param generation the device family from the PCI id: {@code dh895xcc}, {@code c62x}, {@code c3xxx},
 *                   {@code 4xxx}, {@code 401xx}, {@code 402xx}, {@code 420xx}, {@code 6xxx}
 * @param driver     the bound driver's name, null when none is bound
 * @param state      {@code up} or {@code down} where the kernel exposes it (Gen4+); on Windows {@code down} for a
 *                   device disabled in Device Manager; else null
 * @param services   configured services ({@code dc}, {@code sym}, {@code asym}, ...), empty when unknown
 */
public record QatDevice(
        String address,
        String pciId,
        PciFunction function,
        String generation,
        String name,
        String driver,
        String state,
        List<String> services) {

    public QatDevice {
        services = services == null ? List.of() : List.copyOf(services);
    }

    /** Physical or virtual (SR-IOV) function. */
    public enum PciFunction { PF, VF }
}
