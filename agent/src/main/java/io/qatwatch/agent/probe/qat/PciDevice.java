package io.qatwatch.agent.probe.qat;

import java.util.Locale;

/**
 * One PCI function as the OS lists it.
 *
 * @param address   {@code 0000:6b:00.0} on Linux, the device instance path on Windows
 * @param vendorId  four lower-case hex digits, no {@code 0x}
 * @param deviceId  four lower-case hex digits, no {@code 0x}
 * @param classCode the PCI class code in lower-case hex ({@code 020000}, or {@code 0200} from Windows ids), null when unknown
 * @param driver    the bound driver (Linux) or service (Windows), null when none
 * @param name      the device's name from {@code pci.ids} or the Windows device description, null when unknown
 */
public record PciDevice(String address, String vendorId, String deviceId, String classCode, String driver, String name) {

    public static final String INTEL = "8086";

    public String pciId() {
        return vendorId + ":" + deviceId;
    }

    public boolean intel() {
        return INTEL.equals(vendorId);
    }

    /** The base class byte ({@code 02} network, {@code 01} storage, {@code 06} bridge), null when unknown. */
    public String baseClass() {
        return classCode == null || classCode.length() < 2 ? null : classCode.substring(0, 2);
    }

    /** {@code 0x8086} or {@code 8086} to {@code 8086}; null for anything that is not hex. */
    public static String hexId(String raw, int digits) {
        if (raw == null) {
            return null;
        }
        String s = raw.strip().toLowerCase(Locale.ROOT);
        if (s.startsWith("0x")) {
            s = s.substring(2);
        }
        if (s.isEmpty() || s.length() > digits || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return null;
        }
        return "0".repeat(digits - s.length()) + s;
    }

    public PciDevice withName(String newName) {
        return new PciDevice(address, vendorId, deviceId, classCode, driver, newName);
    }
}
