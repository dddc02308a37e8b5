package io.qatwatch.collector.dispatch;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * How alerts travel: grouping, repeat interval, retry backoff, the status page link in messages, and when a
 * moving forecast or a flapping alert is news.
 *
 * @param groupBy               labels that make a notification group: any of rule, host, instance, database
 * @param repeatIntervalMinutes a still-firing group is announced again after this long
 * @param retryInitialSeconds   first retry delay; doubles per attempt, with jitter, capped by {@code retryMaxSeconds}
 * @param statusPageUrl         base URL of the status page, linked from every message
 * @param renotifyShiftDays     a forecast date (creep) earlier than announced by more than this is announced again
 * @param flapThreshold         an alert that resolved and fired again this often within {@code flapWindowMinutes}
 *                              is flapping: the message says so and repeats are held; 0 turns this off
 */
public record PipelineConfig(List<String> groupBy, Integer repeatIntervalMinutes, Integer retryInitialSeconds,
                             Integer retryMaxSeconds, String statusPageUrl, Integer renotifyShiftDays,
                             Integer flapThreshold, Integer flapWindowMinutes) {

    /** The labels groupBy accepts. */
    public static final Set<String> LABELS = Set.of("rule", "host", "instance", "database");

    public PipelineConfig {
        groupBy = groupBy == null ? List.of("rule", "host", "instance") : List.copyOf(groupBy);
        repeatIntervalMinutes = repeatIntervalMinutes == null ? 240 : repeatIntervalMinutes;
        retryInitialSeconds = retryInitialSeconds == null ? 2 : retryInitialSeconds;
        retryMaxSeconds = retryMaxSeconds == null ? 300 : retryMaxSeconds;
        statusPageUrl = statusPageUrl == null ? "http://127.0.0.1:8470/" : statusPageUrl;
        renotifyShiftDays = renotifyShiftDays == null ? 3 : renotifyShiftDays;
        flapThreshold = flapThreshold == null ? 3 : flapThreshold;
        flapWindowMinutes = flapWindowMinutes == null ? 360 : flapWindowMinutes;
    }

    /** This pipeline linking messages to {@code url} instead. */
    public PipelineConfig withStatusPageUrl(String url) {
        return new PipelineConfig(groupBy, repeatIntervalMinutes, retryInitialSeconds, retryMaxSeconds, url,
                renotifyShiftDays, flapThreshold, flapWindowMinutes);
    }

    /** The flap window as a duration. */
    public Duration flapWindow() {
        return Duration.ofMinutes(flapWindowMinutes);
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
        if (renotifyShiftDays < 0) {
            problems.add(key + ".renotifyShiftDays: must be 0 or more, got " + renotifyShiftDays);
        }
        if (flapThreshold < 0 || flapThreshold == 1) {
            problems.add(key + ".flapThreshold: must be 0 (off) or at least 2, got " + flapThreshold);
        }
        if (flapWindowMinutes <= 0) {
            problems.add(key + ".flapWindowMinutes: must be more than 0, got " + flapWindowMinutes);
        }
    }
}
