package io.qatwatch.collector.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The dashboards in {@code dashboards/*.json} read the way Grafana reads them (panels, panels inside rows,
 * their InfluxQL targets, template variables), and Grafana's interpolation of InfluxQL: {@code $timeFilter},
 * {@code $__interval}, and variables as regexes ({@code All} becomes the variable's {@code allValue}).
 */
final class GrafanaDashboards {

    /** The repository's dashboards folder; tests run with the collector module as working directory. */
    static final Path DIR = Path.of("..", "dashboards");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\[\\[(\\w+)]]|\\$(\\w+)");

    private GrafanaDashboards() {
    }

    /** One dashboard file. */
    record Dashboard(String file, JsonNode json) {

        String uid() {
            return json.path("uid").asText();
        }

        /** Top-level panels and those inside rows, rows themselves excluded. */
        List<JsonNode> panels() {
            List<JsonNode> out = new ArrayList<>();
            for (JsonNode p : json.path("panels")) {
                if ("row".equals(p.path("type").asText())) {
                    p.path("panels").forEach(out::add);
                } else {
                    out.add(p);
                }
            }
            return out;
        }

        List<PanelQuery> queries() {
            List<PanelQuery> out = new ArrayList<>();
            for (JsonNode p : panels()) {
                for (JsonNode t : p.path("targets")) {
                    out.add(new PanelQuery(this, p.path("title").asText(), t.path("refId").asText(),
                            t.path("query").asText(), p.path("interval").asText("1h")));
                }
            }
            return out;
        }

        Map<String, Variable> variables() {
            Map<String, Variable> out = new LinkedHashMap<>();
            for (JsonNode v : json.path("templating").path("list")) {
                List<String> options = new ArrayList<>();
                v.path("options").forEach(o -> options.add(o.path("value").asText()));
                out.put(v.path("name").asText(), new Variable(v.path("name").asText(), v.path("type").asText(),
                        v.path("query").asText(), v.path("allValue").asText(null), options));
            }
            return out;
        }
    }

    /** One InfluxQL target of one panel; {@code interval} is the panel's minimum interval (Grafana's $__interval floor). */
    record PanelQuery(Dashboard dashboard, String panel, String refId, String query, String interval) {

        @Override
        public String toString() {
            return dashboard.file() + " / " + panel + " / " + refId;
        }
    }

    /** A template variable: a {@code query} (InfluxQL) or {@code custom} (comma-separated options) one. */
    record Variable(String name, String type, String query, String allValue, List<String> options) {
    }

    /**
     * What a user picked: the time range and, per variable, the selected values (absent or empty = All).
     */
    record Selection(Instant from, Instant to, Map<String, List<String>> values) {

        /** Grafana's InfluxQL interpolation of one query under this selection. */
        String expand(String query, String interval, Map<String, Variable> variables) {
            String timeFilter = "time >= " + from.toEpochMilli() + "ms and time <= " + to.toEpochMilli() + "ms";
            String expanded = query.replace("$timeFilter", timeFilter)
                    .replace("$__interval_ms", Long.toString(toMillis(interval)))
                    .replace("$__interval", interval);
            Matcher m = VARIABLE.matcher(expanded);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String name = Stream.of(m.group(1), m.group(2), m.group(3)).filter(s -> s != null).findFirst().orElseThrow();
                Variable v = variables.get(name);
                if (v == null) {
                    throw new IllegalArgumentException("query uses $" + name + ", which is not a template variable: " + query);
                }
                m.appendReplacement(out, Matcher.quoteReplacement(regexValue(v)));
            }
            m.appendTail(out);
            return out.toString();
        }

        private String regexValue(Variable v) {
            List<String> picked = values.getOrDefault(v.name(), List.of());
            if (picked.isEmpty()) {
                return v.allValue();
            }
            List<String> escaped = picked.stream().map(GrafanaDashboards::escapeRegex).toList();
            return escaped.size() == 1 ? escaped.get(0) : "(" + String.join("|", escaped) + ")";
        }
    }

    static List<Dashboard> load() {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".json"))
                    .sorted(Comparator.naturalOrder())
                    .map(f -> {
                        try {
                            return new Dashboard(f.getFileName().toString(), JSON.readTree(f.toFile()));
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot parse " + f, e);
                        }
                    })
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + DIR.toAbsolutePath(), e);
        }
    }

    /** Grafana's regex escaping of variable values for InfluxDB (lodash escapeRegExp plus '/'). */
    static String escapeRegex(String value) {
        return value.replaceAll("[\\\\^$.*+?()\\[\\]{}|/]", "\\\\$0");
    }

    private static long toMillis(String interval) {
        Matcher m = Pattern.compile("(\\d+)(ms|s|m|h|d)").matcher(interval);
        if (!m.matches()) {
            throw new IllegalArgumentException("interval " + interval);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> n;
            case "s" -> Duration.ofSeconds(n).toMillis();
            case "m" -> Duration.ofMinutes(n).toMillis();
            case "h" -> Duration.ofHours(n).toMillis();
            default -> Duration.ofDays(n).toMillis();
        };
    }
}
