package io.qatwatch.collector.alert;

import java.util.Locale;

/** How urgent an alert is; spelled in lower case on the API and in chat. */
public enum Severity {
    INFO, WARNING, CRITICAL;

    /** The API spelling: {@code info}, {@code warning}, {@code critical}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
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
}
