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
 * ({@code type: webhook}) and prints each alert it announces, as a chat room would show it.
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

    private void print(JsonObject message) {
        JsonArray alerts = message.getJsonArray("alerts", new JsonArray());
        for (int i = 0; i < alerts.size(); i++) {
            JsonObject a = alerts.getJsonObject(i);
            String where = a.getString("host", "") + (a.getString("instance") == null ? "" : "/" + a.getString("instance"))
                    + (a.getString("database") == null ? "" : "/" + a.getString("database"));
            out.println("demo chat  [" + a.getString("status", message.getString("status", "firing")).toUpperCase()
                    + " " + a.getString("severity", "") + "] " + a.getString("rule", "") + " on " + where + ": "
                    + a.getString("summary", ""));
        }
        out.flush();
    }

    Future<Void> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }
}
