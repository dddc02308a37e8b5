package io.qatwatch.collector.alert;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How urgent an alert is; spelled in lower case on the API and in chat. */
public enum Severity {
    INFO, WARNING, CRITICAL;

    /** Spelled once: every active alert's severity is labelled on each scrape and page (tens of thousands at a time). */
    private final String label = name().toLowerCase(Locale.ROOT);

    /** The API spelling: {@code info}, {@code warning}, {@code critical}. */
    @JsonValue
    public String label() {
        return label;
    }

    /** Parses any case; null for an unknown name. */
    public static Severity parse(String s) {
        if (s == null) {
            return null;
        }
        for (Severity v : values()) {
            if (v.name().equalsIgnoreCase(s.trim())) {
                return v;
            }
        }
        return null;
    }

    /** Reads a configured severity; an unknown name is an error saying what is allowed. */
    @JsonCreator
    public static Severity fromConfig(String s) {
        Severity v = parse(s);
        if (v == null) {
            throw new IllegalArgumentException("'" + s + "' is not a severity; use info, warning or critical");
        }
        return v;
    }
}
