package io.qatwatch.collector.alert;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One thing a rule found: what (rule, summary), where (host, instance, database), how bad, why in plain
 * language, and the numbers behind it. Its identity is the rule and the place, so the same finding on the
 * next evaluation is the same alert.
 *
 * @param subject what else tells two alerts of one rule at one place apart (a certificate, a backup type); may be null
 * @param why     the rule's plain-language reason, with this alert's particulars
 * @param facts   the numbers behind it, in display order
 * @param series  optional labelled values over time (e.g. the last nights' margins), oldest first
 * @param forecast the date a forecasting rule predicts (creep: the night under the safety margin), or null; a date
 *                 that moves earlier is announced again, see the pipeline's {@code renotifyShiftDays}
 */
public record Alert(
        String rule,
        Severity severity,
        String host,
        String instance,
        String database,
        String subject,
        String summary,
        String why,
        List<Fact> facts,
        List<Fact> series,
        LocalDate forecast) {

    public Alert {
        facts = facts == null ? List.of() : List.copyOf(facts);
        series = series == null ? List.of() : List.copyOf(series);
    }

    /** An alert that forecasts nothing. */
    public Alert(String rule, Severity severity, String host, String instance, String database, String subject,
            String summary, String why, List<Fact> facts, List<Fact> series) {
        this(rule, severity, host, instance, database, subject, summary, why, facts, series, null);
    }

    /** A label and its value, already formatted for people. */
    public record Fact(String label, String value) {
    }

    /** Stable id: a hash of rule, host, instance, database and subject. */
    public String id() {
        String key = String.join("\u0000", rule, nz(host), nz(instance), nz(database), nz(subject));
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JVM", e);
        }
    }

    /** The API's {@code details}: the why, then one line per fact and the series. */
    public String details() {
        StringBuilder s = new StringBuilder(why);
        for (Fact f : facts) {
            s.append('\n').append(f.label()).append(": ").append(f.value());
        }
        if (!series.isEmpty()) {
            s.append('\n').append(series.stream().map(f -> f.label() + " " + f.value()).collect(Collectors.joining(", ")));
        }
        return s.toString();
    }

    /** "host / instance / database", leaving out what is absent. */
    public String where() {
        return java.util.stream.Stream.of(host, instance, database).filter(x -> x != null && !x.isBlank())
                .collect(Collectors.joining(" / "));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
