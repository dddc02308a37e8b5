package io.qatwatch.collector.dispatch;

import java.util.List;
import java.util.Set;

/**
 * How alerts travel: grouping, repeat interval, retry backoff, and the status page link in messages.
 *
 * @param groupBy               labels that make a notification group: any of rule, host, instance, database
 * @param repeatIntervalMinutes a still-firing group is announced again after this long
 * @param retryInitialSeconds   first retry delay; doubles per attempt, with jitter, capped by {@code retryMaxSeconds}
 * @param statusPageUrl         base URL of the status page, linked from every message
 */
public record PipelineConfig(List<String> groupBy, Integer repeatIntervalMinutes, Integer retryInitialSeconds,
                             Integer retryMaxSeconds, String statusPageUrl) {

    /** The labels groupBy accepts. */
    public static final Set<String> LABELS = Set.of("rule", "host", "instance", "database");

    public PipelineConfig {
        groupBy = groupBy == null ? List.of("rule", "host", "instance") : List.copyOf(groupBy);
        repeatIntervalMinutes = repeatIntervalMinutes == null ? 240 : repeatIntervalMinutes;
        retryInitialSeconds = retryInitialSeconds == null ? 2 : retryInitialSeconds;
        retryMaxSeconds = retryMaxSeconds == null ? 300 : retryMaxSeconds;
        statusPageUrl = statusPageUrl == null ? "http://127.0.0.1:8470/" : statusPageUrl;
    }

    public void validate(String key, List<String> problems) {
        for (int i = 0; i < groupBy.size(); i++) {
            if (!LABELS.contains(groupBy.get(i))) {
                problems.add(key + ".groupBy[" + i + "]: '" + groupBy.get(i) + "' is not one of rule, host, instance, database");
            }
        }
        if (repeatIntervalMinutes <= 0) {
            problems.add(key + ".repeatIntervalMinutes: must be more than 0, got " + repeatIntervalMinutes);
        }
        if (retryInitialSeconds <= 0 || retryMaxSeconds < retryInitialSeconds) {
            problems.add(key + ".retryMaxSeconds: must be at least retryInitialSeconds (" + retryInitialSeconds + ") and both more than 0");
        }
        if (!statusPageUrl.startsWith("http://") && !statusPageUrl.startsWith("https://")) {
            problems.add(key + ".statusPageUrl: '" + statusPageUrl + "' is not an http(s) URL");
        }
    }
}
