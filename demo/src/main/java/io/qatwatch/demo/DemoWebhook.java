package io.qatwatch.demo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The chat channel of the demo: a local HTTP endpoint that takes the collector's generic JSON webhook
 * ({@code type: webhook}) and prints each message it receives, with the alerts it groups, as a chat room would show it.
 */
final class DemoWebhook {

    static final String PATH = "/demo-chat";

    private final PrintStream out;
    private final List<JsonObject> received = new CopyOnWriteArrayList<>();
    private HttpServer server;

    DemoWebhook(PrintStream out) {
        this.out = out;
    }

    Future<DemoWebhook> start(Vertx vertx) {
        return vertx.createHttpServer().requestHandler(req -> {
            if (!req.path().equals(PATH) || !req.method().name().equals("POST")) {
                req.response().setStatusCode(404).end();
                return;
            }
            req.body().onSuccess(body -> {
                try {
                    JsonObject message = body.toJsonObject();
                    received.add(message);
                    print(message);
                    req.response().setStatusCode(204).end();
                } catch (RuntimeException e) {
                    req.response().setStatusCode(400).end();
                }
            });
        }).listen(0, "127.0.0.1").map(s -> {
            server = s;
            return this;
        });
    }

    String url() {
        return "http://127.0.0.1:" + server.actualPort() + PATH;
    }

    /** Every message received so far, as sent. */
    List<JsonObject> received() {
        return List.copyOf(received);
    }

    /**
     * One message as a chat room shows it: its head line ({@code [FIRING 2] rule on host/instance}, as the collector's
     * chat titles read; one head line per delivery, so their count is the channel's delivered count) and one indented
     * line per alert it groups.
     */
    private void print(JsonObject message) {
        JsonArray alerts = message.getJsonArray("alerts", new JsonArray());
        if (alerts.isEmpty()) {
            return;
        }
        int firing = 0;
        int resolved = 0;
        for (int i = 0; i < alerts.size(); i++) {
            if ("resolved".equals(alerts.getJsonObject(i).getString("status"))) {
                resolved++;
            } else {
                firing++;
            }
        }
        JsonObject first = alerts.getJsonObject(0);
        String state = firing == 0 ? "RESOLVED" : "FIRING " + firing + (resolved == 0 ? "" : ", resolved " + resolved);
        StringBuilder lines = new StringBuilder("demo chat  [").append(state).append("] ").append(first.getString("rule", ""))
                .append(" on ").append(where(first, false)).append('\n');
        for (int i = 0; i < alerts.size(); i++) {
            JsonObject a = alerts.getJsonObject(i);
            lines.append("demo chat      ").append("resolved".equals(a.getString("status")) ? "resolved" : a.getString("severity", ""))
                    .append(' ').append(a.getString("rule", "")).append(" on ").append(where(a, true)).append(": ")
                    .append(a.getString("summary", "")).append('\n');
        }
        out.print(lines);
        out.flush();
    }

    private static String where(JsonObject a, boolean withDatabase) {
        return a.getString("host", "") + (a.getString("instance") == null ? "" : "/" + a.getString("instance"))
                + (!withDatabase || a.getString("database") == null ? "" : "/" + a.getString("database"));
    }

    Future<Void> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }
}
