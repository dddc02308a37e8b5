package io.qatwatch.collector.web.server;

import static io.qatwatch.collector.web.server.RequestFields.instant;
import static io.qatwatch.collector.web.server.RequestFields.minutesFrom;
import static io.qatwatch.collector.web.server.RequestFields.object;

import io.qatwatch.collector.web.SilencesApi;
import io.qatwatch.collector.web.server.RequestFields.BadRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;

/** Parses and checks a {@code POST /api/v1/silences} body; every refusal names its field. */
final class SilenceRequests {

    static final Duration LONGEST = Duration.ofDays(90);

    private SilenceRequests() {
    }

    /**
     * {@code {"rule", "host", "instance", "database", "group", "tag", "comment", "endsAt" | "minutes"}}: at least one matcher,
     * a comment saying why, and an expiry in the future, at most 90 days ahead.
     */
    static SilencesApi.Request parse(Buffer body, Instant now) throws BadRequest {
        JsonObject json = object(body,
                "empty body: send {\"rule\", \"host\", \"instance\", \"database\", \"comment\", \"endsAt\"}");
        String rule = text(json, "rule", 64);
        String host = text(json, "host", 256);
        String instance = text(json, "instance", 256);
        String database = text(json, "database", 256);
        String group = text(json, "group", 128);
        String tag = text(json, "tag", 200);
        if (tag != null && !tag.matches("[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}([=:][^,]{1,128})?")) {
            throw new BadRequest("tag", "tag must be key=value (the value may hold '*' and '?') or a bare key, e.g. env=prod");
        }
        if (rule == null && host == null && instance == null && database == null && group == null && tag == null) {
            throw new BadRequest("rule", "give at least one matcher (rule, host, instance, database, group, tag); '*' matches any");
        }
        String comment = text(json, "comment", 512);
        if (comment == null || comment.isBlank()) {
            throw new BadRequest("comment", "say why the alerts are silenced (shown beside them)");
        }
        Instant endsAt = minutesFrom(json, now);
        if (endsAt == null) {
            String at = text(json, "endsAt", 64);
            if (at == null) {
                throw new BadRequest("endsAt", "give endsAt (UTC ISO-8601, e.g. 2026-12-01T07:00:00Z) or minutes");
            }
            endsAt = instant("endsAt", at);
        }
        if (!endsAt.isAfter(now)) {
            throw new BadRequest("endsAt", "is not in the future");
        }
        if (endsAt.isAfter(now.plus(LONGEST))) {
            throw new BadRequest("endsAt", "is more than 90 days ahead; silences must expire");
        }
        return new SilencesApi.Request(rule, host, instance, database, comment, endsAt, group,
                tag == null ? null : tag.replaceFirst(":", "="));
    }

    private static String text(JsonObject json, String field, int max) throws BadRequest {
        return RequestFields.text(json, field, max, false);
    }
}
