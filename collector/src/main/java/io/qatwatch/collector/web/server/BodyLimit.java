package io.qatwatch.collector.web.server;

import io.qatwatch.collector.metrics.CollectorMetrics;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * One API route's body limit: the route's name (the {@code route} label of
 * {@code qatwatch_api_bodies_rejected_total}), its bytes, and what its 413 tells the sender. Reports have their own
 * limit, {@code ingest.maxBodyBytes}, read by the ingest handler; these are the small bodies people's tokens send.
 */
record BodyLimit(String route, int bytes, String what, String advice) {

    static final BodyLimit SIGN_IN = new BodyLimit("sign-in", 8 * 1024, "sign-in form", "it carries a token and nothing else");
    static final BodyLimit SIGN_OUT = new BodyLimit("sign-out", 8 * 1024, "sign-out form", "it carries the CSRF token only");
    /** 2,000 characters of note fit even with every one escaped as a JSON surrogate pair (12 bytes). */
    static final BodyLimit ACKNOWLEDGE = new BodyLimit("acknowledge", 32 * 1024, "acknowledgement",
            "its note is at most " + RequestFields.MAX_NOTE + " characters");
    static final BodyLimit NOTES = new BodyLimit("notes", 32 * 1024, "note", "a note is at most " + RequestFields.MAX_NOTE
            + " characters");
    static final BodyLimit SILENCES = new BodyLimit("silences", 64 * 1024, "silence", "match fewer labels, or shorten the comment");
    static final BodyLimit TOKENS = new BodyLimit("tokens", 4 * 1024, "token request", "it carries a name and a role");
    /** The status page's forms (PageForms): a form-encoded note or comment of 2,000 characters and the rest. */
    static final BodyLimit PAGE_ACKNOWLEDGE = new BodyLimit("page-acknowledge", 16 * 1024, "acknowledge form",
            "its note is at most " + RequestFields.MAX_NOTE + " characters");
    static final BodyLimit PAGE_NOTES = new BodyLimit("page-notes", 16 * 1024, "note form",
            "a note is at most " + RequestFields.MAX_NOTE + " characters");
    static final BodyLimit PAGE_SILENCES = new BodyLimit("page-silences", 16 * 1024, "silence form",
            "match fewer labels, or shorten the comment");
    static final BodyLimit PAGE_UNSILENCE = new BodyLimit("page-unsilence", 16 * 1024, "un-silence form",
            "it carries the CSRF token only");

    /** The 413's message: what was too large, this route's limit, and what to send instead. */
    String message() {
        return what + " larger than the " + route + " route's limit of " + bytes + " bytes; " + advice;
    }

    /** Reads the body up to the limit. */
    Handler<RoutingContext> reader() {
        return BodyHandler.create(false).setBodyLimit(bytes);
    }

    /**
     * Answers this route's oversized bodies (BodyHandler fails them with 413) with its own message and counter; other
     * failures go on to the router's error handlers.
     */
    Route answerOversized(Route route, CollectorMetrics metrics) {
        return route.failureHandler(ctx -> {
            if (ctx.statusCode() != 413) {
                ctx.next();
                return;
            }
            metrics.apiBodyRejected(this.route, "too_large");
            if (!ctx.response().ended()) {
                ctx.response().setStatusCode(413).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", message()).put("field", "$").encode());
            }
        });
    }
}
