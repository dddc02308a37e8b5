package io.qatwatch.collector.web;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a host needs from a DBA, worst first: its agent fell silent, or the most severe of its active alerts,
 * or nothing. Spelled in lower case on the API and the status page.
 */
public enum HostState {
    SILENT, CRITICAL, WARNING, INFO, OK;

    /** Every state, worst first: {@code values()} copies its array on each call. */
    private static final HostState[] ALL = values();

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The API spelling. */
    public String label() {
        return label;
    }

    /**
     * The state of that label (any case), or null. A plain loop: every page parses each active alert's severity, and a
     * stream here allocated some 400 bytes an alert, a third of a fleet page's allocations at 10,000 alerts.
     */
    public static HostState parse(String label) {
        for (HostState s : ALL) {
            if (s.label.equalsIgnoreCase(label)) {
                return s;
            }
        }
        return null;
    }

    /** Every label, worst first. */
    public static List<String> labels() {
        return Arrays.stream(ALL).map(HostState::label).toList();
    }
}
