package io.qatwatch.agent.probe.qat;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.agent.probe.host.FolderListings;
import io.qatwatch.agent.probe.host.LinuxRoot;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads QAT on a Linux root: device state and services from sysfs, bound drivers, loaded modules,
 * firmware files, user-space libraries, the {@code qat} service, device nodes and zlib-accel's engines.
 */
public final class LinuxQatReader {

    static final Set<String> QAT_PCI_DRIVERS = Set.of("dh895xcc", "dh895xccvf", "c6xx", "c6xxvf", "c3xxx",
            "c3xxxvf", "4xxx", "4xxxvf", "420xx", "6xxx", "qat_vfio_pci");
    static final Pattern MODULE = Pattern.compile("intel_qat|qat_.*|usdm_drv");
    static final Pattern FIRMWARE = Pattern.compile("qat_.*\\.bin(\\.xz|\\.zst)?");
    static final Pattern LIBRARY = Pattern.compile("(libqat|libusdm|libqatzip|libqat_s|libusdm_drv_s)\\.so(\\.([0-9.]+))?");
    static final List<String> LIBRARY_FOLDERS = List.of("usr/lib64", "usr/lib/x86_64-linux-gnu", "usr/lib",
            "usr/local/lib64", "usr/local/lib", "lib64", "lib/x86_64-linux-gnu", "lib");
    static final List<String> UNIT_FOLDERS = List.of("etc/systemd/system", "usr/lib/systemd/system", "lib/systemd/system");
    static final List<String> DEVICE_NODES = List.of("dev/qat_adf_ctl", "dev/qat_dev_processes", "dev/usdm_drv", "dev/vfio/vfio");
    static final String ZLIB_ACCEL_CONF = "etc/zlib-accel.conf";

    private final LinuxRoot root;
    /** The library and firmware folders' listings, kept across reads: see {@link FolderListings}. */
    private final FolderListings listings;

    /** A reader for one root; keep it for the root's life, so that unchanged folders are not listed again. */
    public LinuxQatReader(LinuxRoot root) {
        this.root = root;
        this.listings = new FolderListings(root);
    }

    public QatFacts read(List<PciDevice> pci, ProbeProblems problems) {
        List<QatDevice> devices = new ArrayList<>();
        for (PciDevice d : pci) {
            QatGeneration.of(d).ifPresent(match -> devices.add(device(d, match, problems)));
        }
        QatSoftware software = new QatSoftware(drivers(problems), modules(problems), firmware(problems),
                libraries(problems), services(problems), deviceNodes(problems), zlibAccelEngines(problems));
        return new QatFacts(devices, software, QatDevices.compressionReady(devices));
    }

    private QatDevice device(PciDevice d, QatGeneration.Match match, ProbeProblems problems) {
        String at = LinuxPciReader.DEVICES + "/" + d.address() + "/qat/";
        String state = root.readLine(at + "state", problems);
        List<String> services = QatDevices.parseServices(root.readLine(at + "cfg_services", problems));
        return QatDevices.toQatDevice(d, match, state == null ? null : state.toLowerCase(Locale.ROOT), services);
    }

    private List<SoftwareItem> drivers(ProbeProblems problems) {
        return root.list("sys/bus/pci/drivers", problems).stream()
                .filter(QAT_PCI_DRIVERS::contains)
                .map(name -> new SoftwareItem(name, LinuxRoot.display("sys/bus/pci/drivers/" + name), null, "loaded"))
                .toList();
    }

    private List<SoftwareItem> modules(ProbeProblems problems) {
        List<SoftwareItem> items = new ArrayList<>();
        for (String name : root.list("sys/module", problems)) {
            if (MODULE.matcher(name).matches()) {
                String path = "sys/module/" + name;
                items.add(new SoftwareItem(name, LinuxRoot.display(path), root.readLine(path + "/version", problems), "loaded"));
            }
        }
        return items;
    }

    private List<SoftwareItem> firmware(ProbeProblems problems) {
        String folder = root.isFolder("lib/firmware") ? "lib/firmware" : "usr/lib/firmware";
        List<String> names;
        try {
            names = listings.list(folder, "qat_*");
        } catch (IOException e) {
            problems.cannotRead(LinuxRoot.display(folder), e);
            return List.of();
        }
        return names.stream()
                .filter(name -> FIRMWARE.matcher(name).matches())
                .map(name -> new SoftwareItem(name, LinuxRoot.display(folder + "/" + name), null, null))
                .toList();
    }

    private List<SoftwareItem> libraries(ProbeProblems problems) {
        Map<String, SoftwareItem> byName = new LinkedHashMap<>();
        Set<java.nio.file.Path> visited = new java.util.HashSet<>();
        for (String folder : LIBRARY_FOLDERS) {
            java.nio.file.Path real = root.realFolder(folder);
            if (real == null || !visited.add(real)) {
                continue;
            }
            List<String> names;
            try {
                names = listings.list(folder, "lib{qat,usdm}*");
            } catch (IOException e) {
                problems.cannotRead(LinuxRoot.display(folder), e);
                continue;
            }
            for (String name : names) {
                Matcher m = LIBRARY.matcher(name);
                // The versioned file, not its symbolic links; lib and usr/lib may be one folder (merged /usr).
                if (m.matches() && root.isPlainFile(folder + "/" + name) && !byName.containsKey(name)) {
                    byName.put(name, new SoftwareItem(name, LinuxRoot.display(folder + "/" + name), m.group(3), null));
                }
            }
        }
        return List.copyOf(byName.values());
    }

    private List<SoftwareItem> services(ProbeProblems problems) {
        List<SoftwareItem> items = new ArrayList<>();
        for (String folder : UNIT_FOLDERS) {
            String unit = folder + "/qat.service";
            if (root.exists(unit) && items.isEmpty()) {
                boolean enabled = root.exists("etc/systemd/system/multi-user.target.wants/qat.service");
                items.add(new SoftwareItem("qat.service", LinuxRoot.display(unit), null, enabled ? "enabled" : "disabled"));
            }
        }
        if (root.exists("etc/init.d/qat_service")) {
            items.add(new SoftwareItem("qat_service", LinuxRoot.display("etc/init.d/qat_service"), null, null));
        }
        return items;
    }

    private List<SoftwareItem> deviceNodes(ProbeProblems problems) {
        List<SoftwareItem> items = new ArrayList<>();
        for (String node : DEVICE_NODES) {
            if (root.exists(node)) {
                items.add(new SoftwareItem(node.substring("dev/".length()), LinuxRoot.display(node), null, null));
            }
        }
        for (String group : root.list("dev/vfio", problems)) {
            if (group.chars().allMatch(Character::isDigit)) {
                items.add(new SoftwareItem("vfio/" + group, LinuxRoot.display("dev/vfio/" + group), null, null));
            }
        }
        return items;
    }

    private List<String> zlibAccelEngines(ProbeProblems problems) {
        try {
            return root.read(ZLIB_ACCEL_CONF).map(LinuxQatReader::parseZlibAccelEngines).orElse(List.of());
        } catch (IOException e) {
            problems.cannotRead(LinuxRoot.display(ZLIB_ACCEL_CONF), e);
            return List.of();
        }
    }

    /**
     * The engines zlib-accel is set to use ({@code qat}, {@code iaa}, {@code zlib}): those whose
     * {@code use_<engine>_compress} or {@code use_<engine>_uncompress} is not 0.
     */
    static List<String> parseZlibAccelEngines(String text) {
        Map<String, Boolean> engines = new LinkedHashMap<>();
        Pattern option = Pattern.compile("use_(qat|iaa|zlib)_(compress|uncompress)\\s*=\\s*(\\S+)");
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#")) {
                continue;
            }
            Matcher m = option.matcher(trimmed);
            if (m.matches()) {
                boolean on = !m.group(3).equals("0");
                engines.merge(m.group(1), on, Boolean::logicalOr);
            }
        }
        return engines.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }
}
