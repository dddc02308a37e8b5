package io.qatwatch.agent.daemon;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;

/** {@code GET /healthz} on 127.0.0.1 for the service manager; nothing else, never on another address. */
public final class HealthVerticle extends VerticleBase {

    private final int port;
    private final AgentHealth health;
    private HttpServer server;

    public HealthVerticle(int port, AgentHealth health) {
        this.port = port;
        this.health = health;
    }

    @Override
    public Future<?> start() {
        server = vertx.createHttpServer().requestHandler(req -> {
            if (!"/healthz".equals(req.path())) {
                req.response().setStatusCode(404).end();
                return;
            }
            req.response()
                    .setStatusCode(health.healthy() ? 200 : 503)
                    .putHeader("Content-Type", "application/json")
                    .putHeader("Cache-Control", "no-store")
                    .end(health.toJson().encode());
        });
        return server.listen(port, "127.0.0.1");
    }

    /** The port actually bound (useful when configured as a free port in tests). */
    public int actualPort() {
        return server.actualPort();
    }
}
