package io.qatwatch.collector.web.server;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Closes a connection that does not send a complete request head within {@code ingest.headerTimeoutSeconds} of
 * opening or of its last answer: a client that trickles its headers a byte at a time (never silent long enough for
 * the idle timeout) cannot hold a connection for hours. Bodies have their own timeouts.
 */
final class HeaderDeadline {

    private final Vertx vertx;
    private final long timeoutMillis;
    private final Map<HttpConnection, State> connections = new ConcurrentHashMap<>();

    /** Requests started and answered on one connection, and the timer waiting for its next request head. */
    private static final class State {
        long started;
        long answered;
        long timer = -1;
    }

    HeaderDeadline(Vertx vertx, long timeoutMillis) {
        this.vertx = vertx;
        this.timeoutMillis = timeoutMillis;
    }

    void opened(HttpConnection connection) {
        State state = new State();
        connections.put(connection, state);
        connection.closeHandler(v -> {
            State gone = connections.remove(connection);
            if (gone != null && gone.timer >= 0) {
                vertx.cancelTimer(gone.timer);
            }
        });
        arm(connection, state);
    }

    /** A request head arrived: the deadline waits until it has been answered. */
    void requestStarted(RoutingContext ctx) {
        HttpConnection connection = ctx.request().connection();
        State state = connection == null ? null : connections.get(connection);
        if (state == null) {
            return;
        }
        state.started++;
        if (state.timer >= 0) {
            vertx.cancelTimer(state.timer);
            state.timer = -1;
        }
        ctx.addEndHandler(v -> {
            state.answered++;
            arm(connection, state);
        });
    }

    private void arm(HttpConnection connection, State state) {
        if (state.started != state.answered || !connections.containsKey(connection)) {
            return;
        }
        if (state.timer >= 0) {
            vertx.cancelTimer(state.timer);
        }
        state.timer = vertx.setTimer(timeoutMillis, id -> {
            state.timer = -1;
            if (state.started == state.answered) {
                connection.close();
            }
        });
    }
}
