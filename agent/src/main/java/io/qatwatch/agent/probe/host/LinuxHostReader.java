package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.protocol.HostFacts;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads CPU, DMI system identity, host name, OS release and memory of a Linux root. */
public final class LinuxHostReader {

    static final String CPUINFO = "proc/cpuinfo";
    static final String DMI = "sys/class/dmi/id/";

    private final LinuxRoot root;

    public LinuxHostReader(LinuxRoot root) {
        this.root = root;
    }

    /** What was read; a missing {@code proc/cpuinfo} is a problem, a missing DMI folder is not (containers, ARM). */
    public HostReading read(ProbeProblems problems) {
        CpuInfo cpu = new CpuInfo(null, null, null, null, false);
        try {
            Optional<String> cpuinfo = root.read(CPUINFO);
            if (cpuinfo.isPresent()) {
                cpu = parseCpuInfo(cpuinfo.get());
            } else {
                problems.add(LinuxRoot.display(CPUINFO) + " not found: is " + root.folder() + " the root of a Linux system?");
            }
        } catch (IOException e) {
            problems.cannotRead(LinuxRoot.display(CPUINFO), e);
        }
        String manufacturer = root.readLine(DMI + "sys_vendor", problems);
        String product = root.readLine(DMI + "product_name", problems);
        String biosVendor = root.readLine(DMI + "bios_vendor", problems);
        String hostname = Optional.ofNullable(root.readLine("proc/sys/kernel/hostname", problems))
                .orElseGet(() -> root.readLine("etc/hostname", problems));
        HostFacts.OperatingSystem os = root.read("etc/os-release", problems)
                .or(() -> root.read("usr/lib/os-release", problems))
                .map(LinuxHostReader::parseOsRelease)
                .orElse(new HostFacts.OperatingSystem("linux", null, null));
        Long memory = root.read("proc/meminfo", problems).map(LinuxHostReader::parseMemTotalBytes).orElse(null);
        HostFacts.SystemInfo system = manufacturer == null && product == null
                ? null : new HostFacts.SystemInfo(manufacturer, product);
        return new HostReading(hostname, cpu, system, biosVendor, os, memory);
    }


    /** Vendor, model, sockets and logical CPUs from {@code /proc/cpuinfo} (x86 layout; other layouts give nulls). */
    static CpuInfo parseCpuInfo(String text) {
        String vendor = null;
        String model = null;
        int processors = 0;
        Set<String> packages = new HashSet<>();
        boolean hypervisor = false;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "processor" -> processors++;
                case "vendor_id" -> vendor = vendor == null ? value : vendor;
                case "model name" -> model = model == null ? value : model;
                case "physical id" -> packages.add(value);
                case "flags" -> hypervisor |= (" " + value + " ").contains(" hypervisor ");
                default -> { }
            }
        }
        return new CpuInfo(vendor, model, packages.isEmpty() ? null : packages.size(),
                processors == 0 ? null : processors, hypervisor);
    }

    /** {@code PRETTY_NAME} and {@code VERSION_ID} of an {@code os-release} file. */
    static HostFacts.OperatingSystem parseOsRelease(String text) {
        Map<String, String> values = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                values.put(line.substring(0, eq).strip(), unquote(line.substring(eq + 1).strip()));
            }
        }
        String name = values.getOrDefault("PRETTY_NAME", values.get("NAME"));
        return new HostFacts.OperatingSystem("linux", name, values.get("VERSION_ID"));
    }

    /** {@code MemTotal} of {@code /proc/meminfo} in bytes, null when absent. */
    static Long parseMemTotalBytes(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.substring("MemTotal:".length()).strip().split("\\s+");
                try {
                    long kib = Long.parseLong(parts[0]);
                    return kib * 1024;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") || value.startsWith("'"))
                && value.charAt(value.length() - 1) == value.charAt(0)) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }

}
