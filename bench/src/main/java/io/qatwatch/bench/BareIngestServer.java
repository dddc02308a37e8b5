package io.qatwatch.bench;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportFormatException;
import io.qatwatch.protocol.ReportJson;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ingest ceiling: a Vert.x server that only reads the body and parses it as a report, then answers
 * 202 like the collector. No auth, no validation, no store. Deployed once per core, parsing on its event
 * loops, so it measures what HTTP plus JSON alone cost on this machine.
 */
public final class BareIngestServer extends VerticleBase {

    private final int port;
    private final AtomicInteger boundPort;

    /** Listens on {@code port} (0: any) and sets {@code boundPort} to the port bound. */
    public BareIngestServer(int port, AtomicInteger boundPort) {
        this.port = port;
        this.boundPort = boundPort;
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port))
                .requestHandler(this::handle)
                .listen()
                .onSuccess(s -> boundPort.set(s.actualPort()));
    }

    private void handle(HttpServerRequest request) {
        if (!"/api/v1/reports".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        request.body().onSuccess(body -> {
            try {
                AgentReport report = ReportJson.parse(body.getBytes());
                request.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("reportId", report.reportId()).put("duplicate", false).encode());
            } catch (ReportFormatException e) {
                request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("error", e.getMessage()).put("field", e.field()).encode());
            }
        });
    }
}
