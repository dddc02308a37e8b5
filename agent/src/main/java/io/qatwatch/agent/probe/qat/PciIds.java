package io.qatwatch.agent.probe.qat;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Device names from a {@code pci.ids} database (the file behind {@code lspci}). Pure. */
public final class PciIds {

    private PciIds() {
    }

    /**
     * The part of {@code pci.ids} text that names the wanted {@code vendor:device} ids: their vendor lines and device
     * lines, in the file's order, under a comment saying so. What a capture keeps of a 1.4 MB database that names
     * every device ever made; {@link #names} reads the same names from it.
     */
    public static String trimmed(String text, Set<String> wanted) {
        StringBuilder out = new StringBuilder("# qatwatch probe --capture: only the lines of pci.ids that name the ")
                .append(wanted.size()).append(" vendor:device ids the probe listed\n");
        String vendor = null;
        String vendorLine = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("C ")) {
                break;
            }
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!line.startsWith("\t")) {
                vendor = line.length() >= 4 ? line.substring(0, 4).toLowerCase(Locale.ROOT) : null;
                vendorLine = line;
                continue;
            }
            if (vendor == null || line.startsWith("\t\t") || line.length() < 7
                    || !wanted.contains(vendor + ":" + line.substring(1, 5).toLowerCase(Locale.ROOT))) {
                continue;
            }
            if (vendorLine != null) {
                out.append(vendorLine).append('\n');
                vendorLine = null;
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /**
     * The names of the wanted {@code vendor:device} ids found in {@code pci.ids} text. Vendor lines start in
     * column 0, device lines with one tab, subsystem lines with two; the class section at the end is skipped.
     */
    static Map<String, String> names(String text, Set<String> wanted) {
        Map<String, String> names = new HashMap<>();
        String vendor = null;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("C ")) {
                break;
            }
            if (!line.startsWith("\t")) {
                vendor = line.length() >= 4 ? line.substring(0, 4).toLowerCase(Locale.ROOT) : null;
                continue;
            }
            if (vendor == null || line.startsWith("\t\t") || line.length() < 7) {
                continue;
            }
            String id = vendor + ":" + line.substring(1, 5).toLowerCase(Locale.ROOT);
            if (wanted.contains(id)) {
                names.put(id, line.substring(5).strip());
            }
        }
        return names;
    }
}
