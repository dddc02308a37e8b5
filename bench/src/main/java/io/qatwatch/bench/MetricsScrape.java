package io.qatwatch.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/** A collector's {@code /metrics} on the loopback, the families without labels, as numbers. */
final class MetricsScrape {
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI uri;

    MetricsScrape(int port) {
        this.uri = URI.create("http://127.0.0.1:" + port + "/metrics");
    }

    Map<String, Double> now() throws Exception {
        String text = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> out = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#") || line.contains("{")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return out;
    }

    /** Scrapes every 250 ms until {@code ready} holds; fails after {@code max}, saying what it last saw. */
    Map<String, Double> until(Predicate<Map<String, Double>> ready, Duration max) throws Exception {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            Map<String, Double> m = now();
            if (ready.test(m)) {
                return m;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the collector's /metrics did not show what was waited for in " + max + ": " + m);
            }
            Thread.sleep(250);
        }
    }
}
