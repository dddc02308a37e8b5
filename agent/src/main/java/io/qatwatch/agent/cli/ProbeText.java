package io.qatwatch.agent.cli;

import io.qatwatch.agent.probe.qat.QatDevices;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The short human summary {@code qatwatch probe} prints without {@code --json}. Pure. */
final class ProbeText {

    private static final String INDENT = "                ";

    private ProbeText() {
    }

    static String render(AgentReport report) {
        StringBuilder out = new StringBuilder();
        HostFacts host = report.host();
        if (host != null) {
            line(out, "Host", join(" ", host.hostname(), host.os() == null ? null : paren(host.os().name())));
            HostFacts.Cpu cpu = host.cpu();
            line(out, "CPU", cpu == null ? "unknown" : join(", ", cpu.vendor(), cpu.model()) + counts(cpu));
            if (host.system() != null) {
                line(out, "System", join(" ", host.system().manufacturer(), host.system().model()));
            }
            line(out, "Virtualisation", host.virtualization() == null ? "none detected" : host.virtualization());
        }
        if (report.qat() != null) {
            qat(out, report.qat());
        }
        if (report.licence() != null) {
            licence(out, report.licence());
        }
        List<ProbeStatus> failed = report.probes().stream().filter(p -> !p.ok()).toList();
        if (failed.isEmpty()) {
            line(out, "Problems", "none");
        }
        for (int i = 0; i < failed.size(); i++) {
            ProbeStatus p = failed.get(i);
            line(out, i == 0 ? "Problems" : "", p.name() + ": " + p.error());
            boolean lastWithThisHint = i + 1 == failed.size() || !Objects.equals(p.hint(), failed.get(i + 1).hint());
            if (p.hint() != null && lastWithThisHint) {
                line(out, "", "what to do: " + p.hint());
            }
        }
        return out.toString();
    }

    private static void qat(StringBuilder out, QatFacts qat) {
        List<QatDevice> devices = qat.devices();
        String readiness = devices.isEmpty() ? "none found"
                : devices.size() + (devices.size() == 1 ? " function, " : " functions, ")
                        + (qat.compressionReady() ? "compression ready" : "not ready to compress");
        line(out, "QAT devices", readiness);
        for (QatDevice d : devices) {
            line(out, "", String.join("  ", d.address(), d.pciId(), d.function().name(), d.generation(),
                    d.driver() == null ? "no driver" : "driver " + d.driver(),
                    Objects.requireNonNullElse(d.state(), "-"),
                    d.services().isEmpty() ? "-" : String.join(";", d.services())));
        }
        String why = QatDevices.whyNotReady(devices);
        if (why != null) {
            line(out, "", "not ready: " + why);
        }
        QatSoftware sw = qat.software();
        List<String> parts = new ArrayList<>();
        part(parts, "drivers", sw.drivers(), ProbeText::withState);
        part(parts, "modules", sw.kernelModules(), ProbeText::withVersion);
        part(parts, "firmware", sw.firmware(), SoftwareItem::name);
        part(parts, "libraries", sw.libraries(), ProbeText::withVersion);
        part(parts, "services", sw.services(), ProbeText::withState);
        part(parts, "device nodes", sw.deviceNodes(), SoftwareItem::name);
        if (!sw.zlibAccelEngines().isEmpty()) {
            parts.add("zlib-accel engines " + String.join(", ", sw.zlibAccelEngines()));
        }
        line(out, "QAT software", parts.isEmpty() ? "none found" : parts.get(0));
        parts.stream().skip(1).forEach(p -> line(out, "", p));
    }

    private static void licence(StringBuilder out, LicenceFacts licence) {
        line(out, "Licence", licence.verdict().name()
                + (licence.qatSoftwareInstalled() ? " (QAT software installed)" : " (no QAT software installed)"));
        String parts = licence.intelComponents().stream()
                .map(c -> c.kind() + " " + (c.pciId() == null ? "" : c.pciId() + " ") + c.description()
                        + (c.emulated() ? " (emulated)" : ""))
                .collect(Collectors.joining("; "));
        line(out, "", "Intel parts: " + (parts.isEmpty() ? "none" : parts));
        licence.notes().forEach(n -> line(out, "", "- " + n));
    }

    private static void part(List<String> parts, String label, List<SoftwareItem> items, Function<SoftwareItem, String> show) {
        if (!items.isEmpty()) {
            parts.add(label + " " + items.stream().map(show).collect(Collectors.joining(", ")));
        }
    }

    private static String withVersion(SoftwareItem item) {
        return item.version() == null || item.name().contains(item.version()) ? item.name() : item.name() + " " + item.version();
    }

    private static String withState(SoftwareItem item) {
        String base = withVersion(item);
        return item.state() == null ? base : base + " (" + item.state() + ")";
    }

    private static String counts(HostFacts.Cpu cpu) {
        List<String> counts = new ArrayList<>();
        if (cpu.sockets() != null) {
            counts.add(cpu.sockets() + (cpu.sockets() == 1 ? " socket" : " sockets"));
        }
        if (cpu.logicalCores() != null) {
            counts.add(cpu.logicalCores() + " logical CPUs");
        }
        return counts.isEmpty() ? "" : " (" + String.join(", ", counts) + ")";
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(label).append(INDENT, 0, Math.max(1, INDENT.length() - label.length())).append(text).append('\n');
    }

    private static String paren(String s) {
        return s == null ? null : "(" + s + ")";
    }

    private static String join(String separator, String... values) {
        String joined = Stream.of(values).filter(Objects::nonNull).collect(Collectors.joining(separator));
        return joined.isEmpty() ? "unknown" : joined;
    }
}
