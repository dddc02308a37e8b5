package io.qatwatch.collector.web.server;

import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.store.StoreCondition;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code /healthz} and {@code /metrics} say about the store: 200 {@code {"status":"ok"}} while it takes writes;
 * 503 {@code {"status":"failing","reason":"store_full"|"store_corrupt","since","detail"}} while its disk is full or
 * it is damaged (a load balancer stops sending agents here; agents keep their reports), and a gauge per problem.
 */
final class StoreHealth {

    private StoreHealth() {
    }

    static void answer(RoutingContext ctx, StoreCondition condition) {
        Optional<StoreCondition.State> problem = condition.problem();
        ctx.response().putHeader("Content-Type", "application/json");
        if (problem.isEmpty()) {
            ctx.response().end("{\"status\":\"ok\"}");
            return;
        }
        StoreCondition.State s = problem.get();
        ctx.response().setStatusCode(503).end(new JsonObject().put("status", "failing").put("reason", s.problem().label())
                .put("since", s.since().toString()).put("detail", s.detail()).encode());
    }

    static void writeTo(PrometheusText out, StoreCondition condition) {
        StoreCondition.Problem now = condition.problem().map(StoreCondition.State::problem).orElse(null);
        out.family("qatwatch_store_problem", PrometheusText.Type.GAUGE,
                "1 while the store cannot take writes for this reason (store_full: its disk is full; store_corrupt: "
                        + "it is damaged), else 0; ingest answers 503 meanwhile.");
        for (StoreCondition.Problem p : StoreCondition.Problem.values()) {
            out.sample(Map.of("reason", p.label()), p == now ? 1 : 0);
        }
    }
}
