package io.qatwatch.collector.web.server;

import io.qatwatch.collector.web.AlertActions;
import io.qatwatch.collector.web.server.RequestFields.BadRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * {@code /api/v1/alerts/{id}}: the alert with its history (read), acknowledge and end the acknowledgement, add a
 * note (operator). Every refusal names its field; an unknown alert is 404.
 */
final class AlertRequests {

    /** The longest acknowledgement expiry accepted. */
    static final Duration LONGEST = Duration.ofDays(30);

    private final Supplier<AlertActions> actions;
    private final Clock clock;

    AlertRequests(Supplier<AlertActions> actions, Clock clock) {
        this.actions = actions;
        this.clock = clock;
    }

    void show(RoutingContext ctx) {
        AlertActions a = actions.get();
        if (a == null) {
            notConfigured(ctx);
            return;
        }
        answer(ctx, 200, a.alert(ctx.pathParam("id"), clock.instant()));
    }

    /** {@code {"note"?, "minutes"? | "expiresAt"?}}: no expiry holds until the alert resolves or gets worse. */
    void acknowledge(RoutingContext ctx) {
        AlertActions a = actions.get();
        if (a == null) {
            notConfigured(ctx);
            return;
        }
        Instant now = clock.instant();
        String note;
        Instant expiresAt;
        try {
            JsonObject body = body(ctx, true);
            note = text(body, "note");
            expiresAt = expiry(body, now);
        } catch (BadRequest e) {
            bad(ctx, e);
            return;
        }
        answer(ctx, 200, a.acknowledge(ctx.pathParam("id"), by(ctx), note, expiresAt, now));
    }

    void unacknowledge(RoutingContext ctx) {
        AlertActions a = actions.get();
        if (a == null) {
            notConfigured(ctx);
            return;
        }
        a.unacknowledge(ctx.pathParam("id"), by(ctx), clock.instant()).onSuccess(ended -> {
            if (ended) {
                ctx.response().setStatusCode(204).end();
            } else {
                error(ctx, 404, new JsonObject().put("error", "alert " + ctx.pathParam("id") + " is not acknowledged"));
            }
        }).onFailure(e -> failed(ctx, e));
    }

    /** {@code {"text"}}. */
    void note(RoutingContext ctx) {
        AlertActions a = actions.get();
        if (a == null) {
            notConfigured(ctx);
            return;
        }
        String text;
        try {
            text = text(body(ctx, false), "text");
            if (text == null) {
                throw new BadRequest("text", "give the note's text");
            }
        } catch (BadRequest e) {
            bad(ctx, e);
            return;
        }
        answer(ctx, 201, a.note(ctx.pathParam("id"), by(ctx), text, clock.instant()));
    }

    private static String by(RoutingContext ctx) {
        return ctx.get(ReadAccess.READER, "loopback");
    }

    private static JsonObject body(RoutingContext ctx, boolean emptyAllowed) throws BadRequest {
        return RequestFields.object(ctx.body().buffer(), emptyAllowed ? null : "empty body: send a JSON object");
    }

    static String text(JsonObject json, String field) throws BadRequest {
        return RequestFields.note(json, field);
    }

    static Instant expiry(JsonObject json, Instant now) throws BadRequest {
        Instant at = RequestFields.minutesFrom(json, now);
        if (at == null) {
            if (json.getValue("expiresAt") instanceof String s) {
                at = RequestFields.instant("expiresAt", s);
                if (!at.isAfter(now)) {
                    throw new BadRequest("expiresAt", "is not in the future");
                }
            } else if (json.getValue("expiresAt") != null) {
                throw new BadRequest("expiresAt", "must be a UTC ISO-8601 time, e.g. 2026-12-01T07:00:00Z");
            } else {
                return null;
            }
        }
        if (at.isAfter(now.plus(LONGEST))) {
            throw new BadRequest(json.containsKey("minutes") ? "minutes" : "expiresAt", "is more than 30 days ahead");
        }
        return at;
    }

    private static void answer(RoutingContext ctx, int status, Future<JsonObject> result) {
        result.onSuccess(json -> {
            if (!ctx.response().ended()) {
                ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json.encodePrettily());
            }
        }).onFailure(e -> failed(ctx, e));
    }

    private static void failed(RoutingContext ctx, Throwable e) {
        if (e instanceof AlertActions.NoSuchAlert) {
            error(ctx, 404, new JsonObject().put("error", e.getMessage()));
        } else if (e instanceof IllegalArgumentException) {
            error(ctx, 409, new JsonObject().put("error", e.getMessage()));
        } else {
            ctx.fail(e);
        }
    }

    private static void bad(RoutingContext ctx, BadRequest e) {
        error(ctx, 400, new JsonObject().put("error", e.getMessage()).put("field", e.field()));
    }

    private static void notConfigured(RoutingContext ctx) {
        error(ctx, 503, new JsonObject().put("error", "not configured"));
    }

    private static void error(RoutingContext ctx, int status, JsonObject body) {
        if (!ctx.response().ended()) {
            ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
        }
    }
}
