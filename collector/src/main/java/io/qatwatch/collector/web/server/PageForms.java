package io.qatwatch.collector.web.server;

import io.qatwatch.collector.metrics.CollectorMetrics;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.web.AlertActions;
import io.qatwatch.collector.web.SilencesApi;
import io.qatwatch.collector.web.server.RequestFields.BadRequest;
import io.qatwatch.collector.web.status.FormAnswerPage;
import io.qatwatch.collector.web.status.StatusPage;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The status page's own forms: acknowledge an alert, add a note, silence, end a silence. Each is a plain
 * {@code POST} of a form that needs an operator or admin session and is refused from another site and without the
 * session's CSRF token ({@link ReadAccess#requireToChange}); the fields are checked as the API checks its JSON, and
 * the answer sends the browser back to the page it came from.
 */
final class PageForms {

    private final Supplier<AlertActions> actions;
    private final SilencesApi silences;
    private final Clock clock;
    private final Function<RoutingContext, StatusPage.Chrome> chrome;

    PageForms(Supplier<AlertActions> actions, SilencesApi silences, Clock clock, Function<RoutingContext, StatusPage.Chrome> chrome) {
        this.actions = actions;
        this.silences = silences;
        this.clock = clock;
        this.chrome = chrome;
    }

    void mount(Router router, ReadAccess access, CollectorMetrics metrics) {
        CollectorServer.changeWithBody(router, access, "/alerts/:id/acknowledge", Kind.OPERATOR, BodyLimit.PAGE_ACKNOWLEDGE,
                metrics, this::acknowledge);
        CollectorServer.changeWithBody(router, access, "/alerts/:id/notes", Kind.OPERATOR, BodyLimit.PAGE_NOTES, metrics,
                this::note);
        CollectorServer.changeWithBody(router, access, "/silences", Kind.OPERATOR, BodyLimit.PAGE_SILENCES, metrics,
                this::silence);
        CollectorServer.changeWithBody(router, access, "/silences/:id/end", Kind.OPERATOR, BodyLimit.PAGE_UNSILENCE, metrics,
                this::endSilence);
    }

    private void acknowledge(RoutingContext ctx) {
        AlertActions a = actions.get();
        if (a == null) {
            refuse(ctx, 503, "Not acknowledged", "The alert stage is not running on this collector.");
            return;
        }
        Instant now = clock.instant();
        String note;
        Instant expiresAt;
        try {
            JsonObject json = fields(ctx, "note", "minutes");
            note = AlertRequests.text(json, "note");
            expiresAt = AlertRequests.expiry(json, now);
        } catch (BadRequest e) {
            refuse(ctx, 400, "Not acknowledged", e.field() + ": " + e.getMessage());
            return;
        }
        done(ctx, "Not acknowledged", a.acknowledge(ctx.pathParam("id"), by(ctx), note, expiresAt, now));
    }

    private void note(RoutingContext ctx) {
        AlertActions a = actions.get();
        if (a == null) {
            refuse(ctx, 503, "Note not added", "The alert stage is not running on this collector.");
            return;
        }
        String text;
        try {
            text = AlertRequests.text(fields(ctx, "text"), "text");
            if (text == null) {
                throw new BadRequest("text", "give the note's text");
            }
        } catch (BadRequest e) {
            refuse(ctx, 400, "Note not added", e.field() + ": " + e.getMessage());
            return;
        }
        done(ctx, "Note not added", a.note(ctx.pathParam("id"), by(ctx), text, clock.instant()));
    }

    private void silence(RoutingContext ctx) {
        if (silences == null) {
            refuse(ctx, 503, "Not silenced", "The alert stage is not running on this collector.");
            return;
        }
        SilencesApi.Request request;
        try {
            request = SilenceRequests.parse(fields(ctx, "rule", "host", "instance", "database", "comment", "minutes")
                    .toBuffer(), clock.instant());
        } catch (BadRequest e) {
            refuse(ctx, 400, "Not silenced", e.field() + ": " + e.getMessage());
            return;
        }
        done(ctx, "Not silenced", silences.create(request, by(ctx), clock.instant()));
    }

    private void endSilence(RoutingContext ctx) {
        if (silences == null) {
            refuse(ctx, 503, "Silence not ended", "The alert stage is not running on this collector.");
            return;
        }
        silences.expire(ctx.pathParam("id"), clock.instant()).onSuccess(ended -> {
            if (ended) {
                back(ctx);
            } else {
                refuse(ctx, 404, "Silence not ended", "No silence " + ctx.pathParam("id") + " is in force: it ended already.");
            }
        }).onFailure(ctx::fail);
    }

    /** The form's fields as the API's JSON: blank ones left out, {@code minutes} a number. */
    private static JsonObject fields(RoutingContext ctx, String... names) throws BadRequest {
        JsonObject json = new JsonObject();
        for (String name : names) {
            String value = ctx.request().getFormAttribute(name);
            if (value == null || value.isBlank()) {
                continue;
            }
            if (name.equals("minutes")) {
                try {
                    json.put(name, Long.parseLong(value.trim()));
                } catch (NumberFormatException e) {
                    throw new BadRequest(name, "must be a whole number of minutes, at least 1");
                }
            } else {
                json.put(name, value.trim());
            }
        }
        return json;
    }

    private void done(RoutingContext ctx, String title, Future<?> result) {
        result.onSuccess(x -> back(ctx)).onFailure(e -> {
            if (e instanceof AlertActions.NoSuchAlert) {
                refuse(ctx, 404, title, e.getMessage());
            } else if (e instanceof IllegalArgumentException) {
                refuse(ctx, 409, title, e.getMessage());
            } else {
                ctx.fail(e);
            }
        });
    }

    /** 303 to the page the form was on: a path of this server only, never another site's address. */
    private static void back(RoutingContext ctx) {
        ctx.response().setStatusCode(303).putHeader("Location", backOf(ctx)).putHeader("Cache-Control", "no-store").end();
    }

    static String backOf(RoutingContext ctx) {
        String back = ctx.request().getFormAttribute("back");
        if (back == null || !back.startsWith("/") || back.startsWith("//") || back.contains("\\")
                || back.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "/";
        }
        return back;
    }

    private void refuse(RoutingContext ctx, int status, String title, String message) {
        if (!ctx.response().ended()) {
            SignIn.html(ctx.response(), status).end(FormAnswerPage.render(title, message, backOf(ctx), chrome.apply(ctx)));
        }
    }

    private static String by(RoutingContext ctx) {
        return ctx.get(ReadAccess.READER, "loopback");
    }
}
