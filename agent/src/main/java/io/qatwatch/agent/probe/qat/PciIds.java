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
