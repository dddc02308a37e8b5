package io.qatwatch.collector.ingest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;

/**
 * Reads one request body into memory, only after the request was authenticated: within a size limit, an idle
 * timeout (the longest pause between two pieces) and a total timeout (the longest time for the whole body). A body
 * that breaks one fails the future with {@link Refused} saying which; a client that goes away fails it with its
 * exception. Confined to the request's event loop.
 */
final class BodyReader {

    /** Why a body was not read: the status to answer and what to tell the client. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;
        private final String reason;

        Refused(int status, String reason, String message) {
            super(message, null, false, false);
            this.status = status;
            this.reason = reason;
        }

        int status() {
            return status;
        }

        /** The {@code qatwatch_reports_rejected_total} reason. */
        String reason() {
            return reason;
        }
    }

    private final Vertx vertx;
    private final HttpServerRequest request;
    private final long maxBytes;
    private final long idleNanos;
    private final long totalNanos;
    private final Promise<Buffer> promise = Promise.promise();
    private final long started = System.nanoTime();
    private long lastData = started;
    private long timer;
    private Buffer body;

    private BodyReader(Vertx vertx, HttpServerRequest request, long maxBytes, Duration idle, Duration total) {
        this.vertx = vertx;
        this.request = request;
        this.maxBytes = maxBytes;
        this.idleNanos = idle.toNanos();
        this.totalNanos = total.toNanos();
    }

    /** Reads the (paused) request's body; the request is paused again when the future fails. */
    static Future<Buffer> read(Vertx vertx, HttpServerRequest request, long maxBytes, Duration idle, Duration total) {
        return new BodyReader(vertx, request, maxBytes, idle, total).start();
    }

    private Future<Buffer> start() {
        long declared = declaredLength();
        // sized for a small report; a large one grows as it arrives, so a declared length alone reserves little
        body = Buffer.buffer((int) Math.min(Math.max(declared, 1024), 64 * 1024));
        if (request.isEnded()) {
            promise.complete(body);
            return promise.future();
        }
        request.handler(this::data);
        request.endHandler(v -> done(null));
        request.exceptionHandler(e -> done(e));
        timer = vertx.setTimer(Math.max(1, Math.min(idleNanos, totalNanos) / 1_000_000), this::check);
        request.resume();
        return promise.future();
    }

    private long declaredLength() {
        String length = request.getHeader("Content-Length");
        try {
            return length == null ? 0 : Math.max(0, Long.parseLong(length.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void data(Buffer chunk) {
        if (promise.future().isComplete()) {
            return;
        }
        lastData = System.nanoTime();
        if (body.length() + (long) chunk.length() > maxBytes) {
            done(new Refused(413, "too_large", "body larger than ingest.maxBodyBytes (" + maxBytes
                    + " bytes); send fewer backups per report"));
            return;
        }
        body.appendBuffer(chunk);
    }

    private void check(long id) {
        if (promise.future().isComplete()) {
            return;
        }
        long now = System.nanoTime();
        if (now - started >= totalNanos) {
            done(new Refused(408, "timeout", "the body took longer than ingest.bodyTimeoutSeconds ("
                    + totalNanos / 1_000_000_000 + " s) to arrive"));
        } else if (now - lastData >= idleNanos) {
            done(new Refused(408, "timeout", "no part of the body arrived for ingest.bodyIdleTimeoutSeconds ("
                    + idleNanos / 1_000_000_000 + " s)"));
        } else {
            long next = Math.min(lastData + idleNanos, started + totalNanos) - now;
            timer = vertx.setTimer(Math.max(1, next / 1_000_000), this::check);
        }
    }

    private void done(Throwable failure) {
        if (promise.future().isComplete()) {
            return;
        }
        vertx.cancelTimer(timer);
        if (failure == null) {
            promise.complete(body);
            return;
        }
        body = null;
        if (!request.isEnded()) {
            request.pause();
        }
        promise.fail(failure);
    }
}
