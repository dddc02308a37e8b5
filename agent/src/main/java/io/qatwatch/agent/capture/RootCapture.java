package io.qatwatch.agent.capture;

import io.qatwatch.agent.probe.host.LinuxRoot;
import io.qatwatch.agent.probe.qat.LinuxPciReader;
import io.qatwatch.agent.probe.qat.PciIds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies what the Linux probe read into a folder that {@code probe --root} reads back as the same host: the
 * files read (their bytes), the folders listed (their entries, as empty files, folders or links), and the
 * entries looked at. Symbolic links are copied as links (an absolute target made relative to the capture's
 * root), with what they lead to. Nothing the probe did not touch is copied: no shared library, no firmware.
 */
final class RootCapture implements LinuxRoot.Observer {

    /** Longer link chains than this are not followed (a loop). */
    private static final int MAX_LINKS = 40;
    private static final Pattern PCI_ID_FILE = Pattern.compile("sys/bus/pci/devices/([^/]+)/(vendor|device)");

    /** The vendor and device ids read so far, by PCI address: what pci.ids is trimmed to (it is read after them). */
    private final Map<String, String> vendors = new HashMap<>();
    private final Map<String, String> devices = new HashMap<>();

    private final Path source;
    private final Path target;
    private final List<String> problems;

    RootCapture(Path source, Path target, List<String> problems) {
        this.source = source;
        this.target = target;
        this.problems = problems;
    }

    Path folder() {
        return target;
    }

    @Override
    public void read(String relative, byte[] content) {
        Matcher id = PCI_ID_FILE.matcher(relative);
        if (id.matches()) {
            String hex = new String(content, StandardCharsets.US_ASCII).strip().toLowerCase(Locale.ROOT).replaceFirst("^0x", "");
            (id.group(2).equals("vendor") ? vendors : devices).put(id.group(1), hex);
        }
        if (LinuxPciReader.PCI_IDS.contains(relative)) {
            // pci.ids names every device ever made (~1.4 MB): keep the lines that name the devices this host has
            Set<String> wanted = new HashSet<>();
            vendors.forEach((address, vendor) -> {
                if (devices.containsKey(address)) {
                    wanted.add(vendor + ":" + devices.get(address));
                }
            });
            content = PciIds.trimmed(new String(content, StandardCharsets.UTF_8), wanted).getBytes(StandardCharsets.UTF_8);
        }
        copy(relative, content);
    }

    @Override
    public void listed(String relative, List<String> names) {
        copy(relative, null);
        for (String name : names) {
            copy(relative + "/" + name, null);
        }
    }

    @Override
    public void looked(String relative) {
        copy(relative, null);
    }

    private void copy(String relative, byte[] content) {
        try {
            mirror(relative, content, 0);
        } catch (IOException | RuntimeException e) {
            problems.add("cannot copy /" + relative + " into " + target + ": " + e);
        }
    }

    /**
     * Recreates {@code relative} under the target, one name at a time as the kernel resolves it: a link is
     * recreated and what it names is copied in turn; the last name gets {@code content} (or, for a file that
     * was only looked at, stays empty).
     */
    private void mirror(String relative, byte[] content, int links) throws IOException {
        if (links > MAX_LINKS) {
            return;
        }
        List<String> names = names(relative);
        Path src = source;
        Path dst = target;
        for (int i = 0; i < names.size(); i++) {
            src = src.resolve(names.get(i));
            dst = dst.resolve(names.get(i));
            boolean last = i == names.size() - 1;
            if (Files.isSymbolicLink(src)) {
                String text = Files.readSymbolicLink(src).toString();
                if (!Files.exists(dst, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(dst, Path.of(text.startsWith("/") ? "../".repeat(i) + text.substring(1) : text));
                }
                String parent = String.join("/", names.subList(0, i));
                String resolved = text.startsWith("/") ? text : parent + "/" + text;
                List<String> rest = names.subList(i + 1, names.size());
                mirror(String.join("/", normalised(resolved)) + (rest.isEmpty() ? "" : "/" + String.join("/", rest)),
                        content, links + 1);
                return;
            }
            if (!Files.exists(src, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS)) {
                if (!Files.isDirectory(dst)) {
                    Files.createDirectory(dst);
                }
            } else if (!last) {
                return;
            } else if (content != null) {
                Files.write(dst, content);
            } else if (!Files.exists(dst, LinkOption.NOFOLLOW_LINKS)) {
                // a file only listed or looked at (a library, firmware, a device node): its name is what counts
                Files.createFile(dst);
            }
        }
    }

    private static List<String> names(String relative) {
        return Arrays.stream(relative.split("/")).filter(n -> !n.isEmpty() && !n.equals(".")).toList();
    }

    /** {@code a/b/../c} as {@code a/c}; a {@code ..} above the root stays at the root, as it does on the host. */
    private static List<String> normalised(String path) {
        List<String> out = new ArrayList<>();
        for (String name : names(path)) {
            if (name.equals("..")) {
                if (!out.isEmpty()) {
                    out.remove(out.size() - 1);
                }
            } else {
                out.add(name);
            }
        }
        return out;
    }
}
