package io.qatwatch.collector.web.status;

import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.status.StatusView.ActiveAlert;
import io.qatwatch.collector.web.status.StatusView.HostRow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** What every page of the status page formats alike: escaping, durations, sizes, times, tags and links. */
final class Html {

    static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH);

    /** Verdicts in the grey zone of the Intel driver licence ("for use with Intel component products"). */
    static final Set<String> GREY_VERDICTS = Set.of("INTEL_COMPONENT_ONLY", "INTEL_EMULATED_DEVICE_ONLY", "UNKNOWN");

    /** How {@code qatwatch up} is given its SQL Server: the same hint wherever the page says none is watched. */
    static final String UP_SQL = "on a machine started with <code>qatwatch up</code>: run it again with <code>--sql "
            + "jdbc:sqlserver://HOST:1433 --sql-user USER --sql-password-file FILE</code>";

    /** What every verdict means, for the tag's tooltip and the legend under the hosts (DESIGN.md, Contract 1). */
    static final Map<String, String> VERDICTS = verdicts();

    private Html() {
    }

    private static Map<String, String> verdicts() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("INTEL_QAT_HARDWARE", "a QAT device (physical or virtual function) was found");
        m.put("INTEL_CPU", "no QAT device; the CPU is Intel's");
        m.put("INTEL_COMPONENT_ONLY", "no QAT device and no Intel CPU, but another physical Intel part (a NIC, a chipset): the grey zone");
        m.put("INTEL_EMULATED_DEVICE_ONLY", "only Intel devices that a hypervisor emulates (clause (b) below names such devices)");
        m.put("NO_INTEL_COMPONENT", "no Intel component was found");
        m.put("UNKNOWN", "the probe could not read the CPU or the PCI devices (see the host's failed probes)");
        return java.util.Collections.unmodifiableMap(m);
    }

    static String href(FleetQuery q, int defaultLimit) {
        String query = q.queryString(defaultLimit);
        return query.isEmpty() ? "?" : query;
    }

    static String stateClass(String state) {
        return switch (state) {
            case "silent", "critical" -> "bad";
            case "warning" -> "warn";
            case "ok" -> "good";
            default -> "";
        };
    }

    static String licence(String verdict) {
        if (verdict == null) {
            return "<span class=\"muted\">unknown</span>";
        }
        String kind = "INTEL_QAT_HARDWARE".equals(verdict) || "INTEL_CPU".equals(verdict) ? "good"
                : GREY_VERDICTS.contains(verdict) ? "warn" : "";
        String meaning = VERDICTS.get(verdict);
        return "<span class=\"tag " + kind + "\"" + (meaning == null ? "" : " title=\"" + esc(meaning) + "\"") + ">"
                + esc(verdict) + "</span>";
    }

    static String modeClass(String mode) {
        return switch (mode) {
            case "HARDWARE" -> "good";
            case "SOFTWARE" -> "warn";
            default -> "";
        };
    }

    static String qat(HostRow row) {
        if (row.qat() == null) {
            return "<span class=\"muted\">unknown</span>";
        }
        if (row.qat().devices() == 0) {
            return "<span class=\"muted\">no device</span>";
        }
        String devices = row.qat().devices() + (row.qat().devices() == 1 ? " device" : " devices") + ", " + row.qat().devicesUp() + " up";
        return "<span>" + devices + " <span class=\"tag " + (row.qat().compressionReady() ? "good\">compression ready" : "bad\">not ready")
                + "</span></span>";
    }

    /** An agent that lost reports says so: what it could not write (a full disk), dropped or found torn. */
    static void losses(StringBuilder html, StatusView.AgentLosses losses) {
        if (losses == null) {
            return;
        }
        if (losses.lost() > 0) {
            html.append(" <span class=\"tag bad\" title=\"reports the agent made but could not write to its disk (a full "
                    + "disk, an I/O error), so never sent; a total since its outbox was created\">lost ")
                    .append(losses.lost()).append(losses.lost() == 1 ? " report" : " reports").append("</span>");
        }
        if (losses.dropped() > 0) {
            html.append(" <span class=\"tag warn\" title=\"reports dropped, oldest first, from the agent's full outbox "
                    + "while it could not deliver (outbox.maxBytes)\">dropped ").append(losses.dropped()).append("</span>");
        }
        if (losses.corrupt() > 0) {
            html.append(" <span class=\"tag warn\" title=\"torn or corrupt outbox records cut out after a crash\">corrupt ")
                    .append(losses.corrupt()).append("</span>");
        }
    }

    /** A host's page, {@code /hosts/{host}}. */
    static String hostPath(String host) {
        return "/hosts/" + segment(host);
    }

    /** A database's page, {@code /hosts/{host}/{instance}/{database}}. */
    static String databasePath(String host, String instance, String database) {
        return hostPath(host) + "/" + segment(instance) + "/" + segment(database);
    }

    /** The host's name linking to its page. */
    static String hostLink(String host) {
        return "<a class=\"host-link\" href=\"" + esc(hostPath(host)) + "\">" + esc(host) + "</a>";
    }

    /** The database's name linking to its page. */
    static String databaseLink(String host, String instance, String database) {
        return "<a class=\"database-link\" href=\"" + esc(databasePath(host, instance, database)) + "\">" + esc(database) + "</a>";
    }

    /** "host / instance / database", each part that has a page linking to it. */
    static String whereLinks(ActiveAlert a) {
        StringBuilder s = new StringBuilder();
        if (a.host() != null && !a.host().isBlank()) {
            s.append(hostLink(a.host()));
            if (a.instance() != null && !a.instance().isBlank()) {
                s.append(" / ").append(esc(a.instance()));
                if (a.database() != null && !a.database().isBlank()) {
                    s.append(" / ").append(databaseLink(a.host(), a.instance(), a.database()));
                }
            }
            return s.toString();
        }
        return esc(where(a));
    }

    /** One path segment, percent-encoded (names come from the field: a database may be called anything). */
    static String segment(String name) {
        return java.net.URLEncoder.encode(name == null ? "" : name, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Charts and compression rows follow the host table's page: say so when it is not the whole fleet. */
    static void pageNote(StringBuilder html, StatusView view) {
        if (view.fleet().size() < view.summary().hosts()) {
            html.append("<p class=\"muted page-note\">For the ").append(view.fleet().size())
                    .append(view.fleet().size() == 1 ? " host" : " hosts").append(" listed above.</p>");
        }
    }

    static String where(ActiveAlert a) {
        StringBuilder s = new StringBuilder();
        for (String part : new String[] {a.host(), a.instance(), a.database()}) {
            if (part != null && !part.isBlank()) {
                s.append(s.isEmpty() ? "" : " / ").append(part);
            }
        }
        return s.toString();
    }

    static String ago(Instant then, Instant now) {
        long seconds = Math.max(0, Duration.between(then, now).getSeconds());
        if (seconds < 120) {
            return seconds + " s ago";
        }
        if (seconds < 7200) {
            return seconds / 60 + " min ago";
        }
        if (seconds < 172_800) {
            return seconds / 3600 + " h ago";
        }
        return seconds / 86_400 + " days ago";
    }

    /** Under ten minutes to a tenth of a second ("8 min 19.6 s", "40.0 s"): algorithms are compared there; above, as {@link #duration}. */
    static String preciseDuration(double seconds) {
        if (seconds >= 600) {
            return duration(Math.round(seconds));
        }
        long minutes = (long) (seconds / 60);
        String rest = String.format(Locale.ROOT, "%.1f s", seconds - minutes * 60);
        return minutes == 0 ? rest : minutes + " min " + rest;
    }

    /** "2 h 05 min", "12 min", "40 s". */
    static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        long minutes = Math.round(seconds / 60.0);
        return minutes < 60 ? minutes + " min" : String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60);
    }

    static String minutes(double minutes) {
        String d = duration(Math.round(Math.abs(minutes) * 60));
        return minutes < 0 ? "\u2212" + d : d;
    }

    static String bytes(long bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB", "PB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** HTML-escapes text from reports: host, instance and database names come from the field. */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
