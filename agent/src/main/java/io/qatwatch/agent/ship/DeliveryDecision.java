package io.qatwatch.agent.ship;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * What to do with a report after the collector answered (or did not): the whole retry policy as one
 * pure function, {@link #of}.
 */
public sealed interface DeliveryDecision {

    /** The longest {@code Retry-After} honoured; a larger one is taken as this. */
    Duration MAX_RETRY_AFTER = Duration.ofHours(1);

    /** Statuses that say the agent is set up wrong (token, URL, proxy), not that the report is bad. */
    Set<Integer> AGENT_SETUP = Set.of(401, 403, 404, 405, 407);

    /** Stored (or already stored: a repeat by report id). The report leaves the outbox. */
    record Delivered(boolean duplicate) implements DeliveryDecision {
    }

    /** Try again later: no answer, 408, 429, 5xx. {@code retryAfter} is the collector's wish, or null. */
    record Retry(String reason, Duration retryAfter) implements DeliveryDecision {
    }

    /** The agent's setup is wrong; retrying soon will not help, so wait the longest backoff. */
    record Misconfigured(String reason) implements DeliveryDecision {
    }

    /** The collector refused this report and will refuse it again: park it and go on with the next. */
    record Refused(String reason) implements DeliveryDecision {
    }

    /** Decides from the HTTP status, the {@code Retry-After} header and the body of the collector's answer. */
    static DeliveryDecision of(int status, String retryAfter, String body, Instant now) {
        if (status >= 200 && status < 300) {
            return new Delivered(duplicateFlag(body));
        }
        String reason = "HTTP " + status + describe(body);
        if (status == 408 || status == 429 || status >= 500) {
            return new Retry(reason, parseRetryAfter(retryAfter, now));
        }
        if (AGENT_SETUP.contains(status)) {
            return new Misconfigured(reason);
        }
        if (status >= 400) {
            return new Refused(reason);
        }
        return new Retry(reason, null);
    }

    /** {@code Retry-After} as delta-seconds or an HTTP date; null when absent or unreadable; capped at an hour. */
    static Duration parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        Duration wait;
        try {
            wait = Duration.ofSeconds(Long.parseLong(v));
        } catch (NumberFormatException notSeconds) {
            try {
                wait = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
        if (wait.isNegative()) {
            return Duration.ZERO;
        }
        return wait.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : wait;
    }

    private static boolean duplicateFlag(String body) {
        JsonNode node = json(body);
        return node != null && node.path("duplicate").asBoolean(false);
    }

    /** The collector's {@code error} and {@code field}, or the start of a non-JSON body. */
    private static String describe(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        JsonNode node = json(body);
        if (node != null && node.hasNonNull("error")) {
            String field = node.path("field").asText(null);
            return ": " + node.get("error").asText() + (field == null ? "" : " (field " + field + ")");
        }
        String text = body.strip().replaceAll("\\s+", " ");
        return ": " + (text.length() > 200 ? text.substring(0, 200) + "…" : text);
    }

    private static JsonNode json(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return WireJson.tree(body);
        } catch (Exception notJson) {
            return null;
        }
    }
}
