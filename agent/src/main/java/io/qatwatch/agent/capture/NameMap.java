package io.qatwatch.agent.capture;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --anonymize}: host, instance, availability group, database and login names replaced by stand-ins
 * ({@code anon-host-1}, {@code ANON_INSTANCE_1}, {@code anon-db-1} ...), the same stand-in wherever a name
 * occurs (case ignored) as a whole word: in a file, a registry value, a result set, a backup file's path.
 * System databases and the default instance name are kept: they name nothing of the user's.
 */
final class NameMap implements UnaryOperator<String> {

    private static final Set<String> KEPT = Set.of("master", "model", "msdb", "tempdb", "mssqlserver", "localhost");

    /** Real name (lower case) to stand-in, in the order found. */
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> shown = new LinkedHashMap<>();
    private final Map<String, Integer> counters = new LinkedHashMap<>();
    private Pattern pattern;

    /** The names the report holds, and the login the probe used (may be null). */
    static NameMap of(AgentReport report, String login) {
        NameMap map = new NameMap();
        if (report.host() != null) {
            map.host(report.host().hostname());
        }
        for (SqlInstanceSnapshot i : report.instances()) {
            map.add("instance", i.name());
            if (i.server() != null) {
                map.host(i.server().machineName());
                String server = i.server().serverName();
                if (server != null && server.contains("\\")) {
                    map.host(server.substring(0, server.indexOf('\\')));
                    map.add("instance", server.substring(server.indexOf('\\') + 1));
                } else {
                    map.host(server);
                }
            }
            if (i.databases() != null) {
                i.databases().forEach(d -> {
                    map.add("db", d.name());
                    map.add("ag", d.availabilityGroup());
                });
            }
            if (i.backups() != null) {
                i.backups().forEach(b -> map.add("db", b.databaseName()));
            }
            if (i.runningBackups() != null) {
                i.runningBackups().forEach(b -> map.add("db", b.databaseName()));
            }
        }
        if (login != null) {
            map.add("login", login);
            if (login.contains("\\")) {
                map.add("login", login.substring(login.indexOf('\\') + 1));
            }
        }
        return map;
    }

    private void host(String name) {
        if (name == null || name.isBlank()) {
            return;
        }
        add("host", name);
        if (name.contains(".")) {
            add("host", name.substring(0, name.indexOf('.')));
        }
    }

    private void add(String kind, String name) {
        if (name == null || name.isBlank() || KEPT.contains(name.toLowerCase(Locale.ROOT))) {
            return;
        }
        String key = name.toLowerCase(Locale.ROOT);
        if (!names.containsKey(key)) {
            int n = counters.merge(kind, 1, Integer::sum);
            String standIn = kind.equals("instance") ? "ANON_INSTANCE_" + n : "anon-" + kind + "-" + n;
            names.put(key, standIn);
            shown.put(name, standIn);
            pattern = null;
        }
    }

    /** What replaced what, for the person who captured (never written into the capture). */
    Map<String, String> replacements() {
        return shown;
    }

    /** The stand-in of a name, or the name when it is not replaced. */
    String standIn(String name) {
        return name == null ? null : names.getOrDefault(name.toLowerCase(Locale.ROOT), name);
    }

    @Override
    public String apply(String text) {
        if (text == null || names.isEmpty()) {
            return text;
        }
        if (pattern == null) {
            List<String> longestFirst = new ArrayList<>(names.keySet());
            longestFirst.sort(Comparator.comparingInt(String::length).reversed());
            StringBuilder alternatives = new StringBuilder();
            for (String name : longestFirst) {
                alternatives.append(alternatives.length() == 0 ? "" : "|").append(Pattern.quote(name));
            }
            // a whole word: no letter or digit right before or after (SQL01_Sales_FULL.bak is three words)
            pattern = Pattern.compile("(?<![\\p{L}\\p{N}])(?:" + alternatives + ")(?![\\p{L}\\p{N}])",
                    Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        }
        Matcher m = pattern.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(names.get(m.group().toLowerCase(Locale.ROOT))));
        }
        m.appendTail(out);
        return out.toString();
    }
}
