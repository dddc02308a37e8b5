package io.qatwatch.collector.metrics;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes Prometheus text exposition format 0.0.4. Every family is declared with its help and type before its
 * samples, and only once; a counter's name ends in {@code _total}, as {@code promtool check metrics} asks.
 */
public final class PrometheusText {

    /** The metric types this writer emits. */
    public enum Type { COUNTER, GAUGE, HISTOGRAM, SUMMARY }

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private final StringBuilder out = new StringBuilder(8192);
    private final Set<String> families = new HashSet<>();
    private String current;

    /** Declares a family; the samples that follow belong to it. */
    public PrometheusText family(String name, Type type, String help) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a Prometheus metric name: " + name);
        }
        if (type == Type.COUNTER != name.endsWith("_total")) {
            throw new IllegalArgumentException(name + ": counters, and only counters, end in _total");
        }
        if (help == null || help.isBlank()) {
            throw new IllegalArgumentException(name + ": every family needs a help text");
        }
        if (!families.add(name)) {
            throw new IllegalArgumentException(name + " declared twice");
        }
        current = name;
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type.name().toLowerCase(Locale.ROOT)).append('\n');
        return this;
    }

    /** A sample of the current family without labels. */
    public PrometheusText sample(double value) {
        return sample("", Map.of(), value);
    }

    /** A sample of the current family with labels (in the map's order). */
    public PrometheusText sample(Map<String, String> labels, double value) {
        return sample("", labels, value);
    }

    /** A sample whose name is the family's plus a suffix ({@code _bucket}, {@code _sum}, {@code _count}). */
    public PrometheusText sample(String suffix, Map<String, String> labels, double value) {
        if (current == null) {
            throw new IllegalStateException("a sample before any family");
        }
        out.append(current).append(suffix);
        if (!labels.isEmpty()) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, String> label : labels.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append(label.getKey()).append("=\"").append(escape(label.getValue())).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(format(value)).append('\n');
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }
}
