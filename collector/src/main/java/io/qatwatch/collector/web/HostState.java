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

    /** The API spelling. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state of that label (any case), or null. */
    public static HostState parse(String label) {
        return Arrays.stream(values()).filter(s -> s.label().equalsIgnoreCase(label)).findFirst().orElse(null);
    }

    /** Every label, worst first. */
    public static List<String> labels() {
        return Arrays.stream(values()).map(HostState::label).toList();
    }
}
