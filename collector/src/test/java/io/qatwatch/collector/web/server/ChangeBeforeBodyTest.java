package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore.Kind;
import io.qatwatch.collector.testing.RawHttp;
import io.qatwatch.collector.testing.RunningCollector;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request that changes something and carries a body (silences, acknowledgements, notes, tokens) is answered
 * on its headers alone when the token is missing, unknown or lacks the role: the client that announced a body and
 * never sends it still gets its 401 or 403 at once. Were the body read first, the answer would wait for it.
 */
class ChangeBeforeBodyTest {

    private static final Duration STALL = Duration.ofSeconds(4);

    @TempDir
    Path data;

    @Test
    void aClientWithoutTheRightTokenIsRefusedBeforeItsBodyIsRead() throws Exception {
        try (RunningCollector c = RunningCollector.withAlertStage(CollectorConfig.defaults(), data, Clock.systemUTC())) {
            String reader = c.token("grafana", Kind.READ);
            String operator = c.token("oncall", Kind.OPERATOR);
            List<Case> cases = new ArrayList<>();
            for (String path : List.of("/api/v1/silences", "/api/v1/alerts/some-alert/acknowledge",
                    "/api/v1/alerts/some-alert/notes")) {
                cases.add(new Case(path, null, 401));
                cases.add(new Case(path, "qw_forged", 401));
                cases.add(new Case(path, reader, 403));
            }
            cases.add(new Case("/api/v1/tokens", null, 401));
            cases.add(new Case("/api/v1/tokens", operator, 403));
            // each client stalls for seconds: all at once, on their own connections
            ExecutorService clients = Executors.newFixedThreadPool(cases.size());
            try {
                List<Future<?>> done = new ArrayList<>();
                for (Case k : cases) {
                    done.add(clients.submit(() -> {
                        assertRefusedAtOnce(c, k.path(), k.token(), k.status());
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                clients.shutdownNow();
            }
        }
    }

    private record Case(String path, String token, int status) {
    }

    private static void assertRefusedAtOnce(RunningCollector c, String path, String token, int status) throws Exception {
        StringBuilder head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("Content-Type: application/json\r\nContent-Length: 2000\r\n");
        if (token != null) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        RawHttp.Answer answer = RawHttp.exchange(c.port(), RawHttp.steps(RawHttp.send(head.append("\r\n").toString()),
                RawHttp.pause(STALL)), STALL);
        assertThat(answer.status()).as(path + " with " + (token == null ? "no token" : "that token") + ": " + answer.body())
                .isEqualTo(status);
        assertThat(answer.answeredAfter()).as(path + ": answered without waiting for the announced body")
                .isLessThan(STALL.minusSeconds(1));
    }
}
