package io.qatwatch.agent.probe.qat;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.host.RegistryView;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lists the PCI functions Windows has enumerated ({@code HKLM\SYSTEM\CurrentControlSet\Enum\PCI}), with the
 * service (driver) each is bound to. Windows keeps keys of devices seen before, so a removed card may show.
 */
public final class WindowsPciReader {

    static final String ENUM_PCI = "SYSTEM\\CurrentControlSet\\Enum\\PCI";
    static final Pattern HARDWARE_ID = Pattern.compile("(?i)VEN_([0-9A-F]{4})&DEV_([0-9A-F]{4}).*");
    static final Pattern CLASS_ID = Pattern.compile("(?i)PCI\\\\CC_([0-9A-F]{4,6})");

    private final RegistryView registry;

    public WindowsPciReader(RegistryView registry) {
        this.registry = registry;
    }

    public List<PciDevice> read(ProbeProblems problems) {
        List<String> hardwareIds = registry.subKeys(ENUM_PCI);
        if (hardwareIds.isEmpty()) {
            problems.add("registry key HKLM\\" + ENUM_PCI + " not found or empty: cannot list PCI devices");
            return List.of();
        }
        List<PciDevice> devices = new ArrayList<>();
        for (String hardwareId : hardwareIds) {
            Matcher m = HARDWARE_ID.matcher(hardwareId);
            if (!m.matches()) {
                problems.add("HKLM\\" + ENUM_PCI + "\\" + hardwareId + ": not a VEN_xxxx&DEV_xxxx key, skipped");
                continue;
            }
            for (String instance : registry.subKeys(ENUM_PCI + "\\" + hardwareId)) {
                String key = ENUM_PCI + "\\" + hardwareId + "\\" + instance;
                devices.add(new PciDevice("PCI\\" + hardwareId + "\\" + instance,
                        m.group(1).toLowerCase(Locale.ROOT), m.group(2).toLowerCase(Locale.ROOT),
                        classCode(registry.strings(key, "CompatibleIDs")), registry.string(key, "Service"),
                        deviceName(registry.string(key, "DeviceDesc"))));
            }
        }
        return devices;
    }

    /** The longest {@code PCI\CC_xxxxxx} among the compatible ids: the class code with its programming interface. */
    static String classCode(List<String> compatibleIds) {
        String best = null;
        for (String id : compatibleIds) {
            Matcher m = CLASS_ID.matcher(id.strip());
            if (m.matches() && (best == null || m.group(1).length() > best.length())) {
                best = m.group(1).toLowerCase(Locale.ROOT);
            }
        }
        return best;
    }

    /** {@code @oem12.inf,%qat.devicedesc%;Intel(R) 4xxx Accelerator} to {@code Intel(R) 4xxx Accelerator}. */
    static String deviceName(String deviceDesc) {
        if (deviceDesc == null || deviceDesc.isBlank()) {
            return null;
        }
        int semicolon = deviceDesc.lastIndexOf(';');
        return (semicolon < 0 ? deviceDesc : deviceDesc.substring(semicolon + 1)).strip();
    }
}
