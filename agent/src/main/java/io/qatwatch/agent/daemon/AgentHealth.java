package io.qatwatch.agent.daemon;

import io.qatwatch.agent.ship.DeliveryStatus;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxStats;
import io.qatwatch.protocol.ProbeStatus;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code GET /healthz} says: the agent's version and uptime, the outbox, delivery, and each probe's
 * last outcome. "degraded" (HTTP 503) only when reports cannot be written to the outbox: that is the
 * one state in which reports are being lost.
 */
public final class AgentHealth {

    private final Clock clock;
    private final Instant startedAt;
    private final String version;
    private final DeliveryStatus delivery;
    private volatile Outbox outbox;
    private volatile String appendError;
    private final AtomicLong reportsWritten = new AtomicLong();
    private final Map<String, JsonObject> probes = new TreeMap<>();

    public AgentHealth(Clock clock, Instant startedAt, String version, DeliveryStatus delivery) {
        this.clock = clock;
        this.startedAt = startedAt;
        this.version = version;
        this.delivery = delivery;
    }

    void watch(Outbox outbox) {
        this.outbox = outbox;
    }

    void appended(Throwable failure) {
        appendError = failure == null ? null : failure.toString();
        if (failure == null) {
            reportsWritten.incrementAndGet();
        }
    }

    /** Reports written to the outbox since the agent started. */
    public long reportsWritten() {
        return reportsWritten.get();
    }

    synchronized void probesRan(List<ProbeStatus> statuses, Instant at) {
        for (ProbeStatus s : statuses) {
            probes.put(s.name(), new JsonObject().put("ok", s.ok()).put("at", at.toString())
                    .put("durationMs", s.durationMs()).put("error", s.error()));
        }
    }

    public boolean healthy() {
        return appendError == null;
    }

    public synchronized JsonObject toJson() {
        Instant now = clock.instant();
        JsonObject json = new JsonObject()
                .put("status", healthy() ? "ok" : "degraded")
                .put("version", version)
                .put("uptimeSeconds", Math.max(0, Duration.between(startedAt, now).toSeconds()))
                .put("reportsWritten", reportsWritten.get());
        Outbox o = outbox;
        if (o != null) {
            OutboxStats s = o.stats();
            json.put("outbox", new JsonObject().put("depth", s.depth()).put("pendingBytes", s.pendingBytes())
                    .put("droppedTotal", s.droppedTotal()).put("corruptTotal", s.corruptTotal())
                    .put("parkedTotal", s.parkedTotal()).put("lostTotal", s.lostTotal()).put("appendError", appendError));
        }
        DeliveryStatus.View d = delivery.view();
        json.put("delivery", new JsonObject()
                .put("lastDeliveredAt", str(d.lastDeliveredAt()))
                .put("lastFailureAt", str(d.lastFailureAt()))
                .put("lastFailure", d.lastFailure())
                .put("consecutiveFailures", d.consecutiveFailures())
                .put("nextAttemptAt", str(d.nextAttemptAt())));
        JsonObject p = new JsonObject();
        probes.forEach(p::put);
        json.put("probes", p);
        return json;
    }

    private static String str(Instant i) {
        return i == null ? null : i.toString();
    }
}
