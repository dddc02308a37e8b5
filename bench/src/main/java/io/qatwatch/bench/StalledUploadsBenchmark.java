package io.qatwatch.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Slow and stalled uploads against a collector in its own JVM: {@code clients} connections at once post an
 * 8 MiB report, send part of it and stall. Measures the collector's RSS before, at its peak during and after, when
 * each got its answer and when the collector closed each connection. Unauthenticated uploads must be answered 401 at
 * once and closed within the linger time (2 s); uploads with a valid token are read, stall, and get 408 after
 * {@code ingest.bodyIdleTimeoutSeconds}.
 */
final class StalledUploadsBenchmark {

    private static final int DECLARED = 8 * 1024 * 1024;

    /** What to run: clients per phase, bytes each sends before it stalls, the server's JVM and scratch directory. */
    record Settings(int clients, int unauthenticatedBytes, int authenticatedBytes, Duration stall, List<String> serverJvm,
            Path workDir) {
    }

    /** One phase's figures. */
    record Phase(String name, int clients, int sentBytesEach, long rssBeforeBytes, long rssPeakBytes, long rssAfterBytes,
            int answered, String statuses, Duration slowestAnswer, int closed, Duration slowestClose) {
    }

    private record Client(int status, Duration answeredAfter, Duration closedAfter) {
    }

    private final Settings settings;

    StalledUploadsBenchmark(Settings settings) {
        this.settings = settings;
    }

    List<Phase> run(BenchLog log) throws Exception {
        // a fresh store per run: the agent token is enrolled anew
        List<String> args = List.of("collector", "--no-alert-stage", "--agents", "1", "--data",
                settings.workDir().resolve("store-" + System.currentTimeMillis()).toString());
        try (ServerProcess server = ServerProcess.start("stalled", settings.serverJvm(), args, settings.workDir())) {
            String token = server.tokens().values().iterator().next();
            warmUp(server, token, log);
            List<Phase> phases = new ArrayList<>();
            phases.add(phase(server, "unauthenticated (no token)", null, settings.unauthenticatedBytes(), log));
            phases.add(phase(server, "unauthenticated (forged token)", "qw_aaaaaaaaaaaa_" + "A".repeat(43),
                    settings.unauthenticatedBytes(), log));
            phases.add(phase(server, "agent token, body stalls", token, settings.authenticatedBytes(), log));
            if (!server.alive()) {
                throw new IOException("the collector died during the run: " + server.exitReason());
            }
            return phases;
        }
    }

    /** Good reports first, so that the baseline is a collector that has served (JIT, buffers, store open). */
    private void warmUp(ServerProcess server, String token, BenchLog log) throws Exception {
        ReportTemplate template = ReportTemplate.of(new SimulatedAgent(0), Instant.now(), "stalled");
        for (int i = 0; i < 200; i++) {
            byte[] body = template.render(i);
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                out.write(head("Authorization: Bearer " + token, body.length).getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                String status = statusLine(s.getInputStream());
                if (!status.contains(" 202 ")) {
                    throw new IOException("warm-up report answered " + status);
                }
            }
        }
        System.gc();
        Thread.sleep(3000);
        log.say("stalled: warmed up with 200 reports; RSS " + mib(server.sample().rssBytes()));
    }

    private Phase phase(ServerProcess server, String name, String token, int sendBytes, BenchLog log) throws Exception {
        Thread.sleep(2000);
        long before = server.sample().rssBytes();
        ExecutorService pool = Executors.newFixedThreadPool(settings.clients());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Client>> clients = new ArrayList<>();
        for (int i = 0; i < settings.clients(); i++) {
            clients.add(pool.submit(() -> {
                go.await();
                return stall(server.port(), token, sendBytes);
            }));
        }
        long peak = before;
        go.countDown();
        long end = System.nanoTime() + settings.stall().plusSeconds(5).toNanos();
        while (System.nanoTime() < end && !clients.stream().allMatch(Future::isDone)) {
            peak = Math.max(peak, server.sample().rssBytes());
            Thread.sleep(50);
        }
        List<Client> done = new ArrayList<>();
        for (Future<Client> c : clients) {
            done.add(c.get(60, TimeUnit.SECONDS));
        }
        pool.shutdownNow();
        Thread.sleep(1000);
        long after = server.sample().rssBytes();
        peak = Math.max(peak, after);
        Duration slowestAnswer = done.stream().map(Client::answeredAfter).filter(d -> d != null).max(Duration::compareTo)
                .orElse(null);
        Duration slowestClose = done.stream().map(Client::closedAfter).filter(d -> d != null).max(Duration::compareTo)
                .orElse(null);
        String statuses = done.stream().map(c -> c.status() < 0 ? "none" : Integer.toString(c.status())).distinct()
                .sorted().reduce((a, b) -> a + ", " + b).orElse("");
        Phase p = new Phase(name, settings.clients(), sendBytes, before, peak, after,
                (int) done.stream().filter(c -> c.status() > 0).count(), statuses, slowestAnswer,
                (int) done.stream().filter(c -> c.closedAfter() != null).count(), slowestClose);
        log.say("stalled: " + name + ": RSS " + mib(before) + " -> peak " + mib(peak) + ", after " + mib(after)
                + "; answers " + statuses + ", all closed within " + (slowestClose == null ? "-" : seconds(slowestClose)));
        return p;
    }

    /** Posts an 8 MiB body, sends {@code sendBytes} of it and stalls; returns the answer and when the server closed. */
    private Client stall(int port, String token, int sendBytes) {
        long start = System.nanoTime();
        Long answered = null;
        int status = -1;
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(head(token == null ? null : "Authorization: Bearer " + token, DECLARED).getBytes(StandardCharsets.ISO_8859_1));
            byte[] chunk = new byte[64 * 1024];
            try {
                for (int sent = 0; sent < sendBytes; sent += chunk.length) {
                    out.write(chunk, 0, Math.min(chunk.length, sendBytes - sent));
                }
                out.flush();
            } catch (IOException closedWhileSending) {
                // the server answered and closed while the body was still going out
            }
            long deadline = start + settings.stall().toNanos();
            StringBuilder text = new StringBuilder();
            byte[] buf = new byte[4096];
            while (System.nanoTime() < deadline) {
                s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketTimeoutException quiet) {
                    continue;
                } catch (IOException reset) {
                    break;
                }
                if (n < 0) {
                    break;
                }
                if (answered == null) {
                    answered = System.nanoTime();
                }
                text.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
            }
            long closed = System.nanoTime();
            if (text.length() >= 12 && text.toString().startsWith("HTTP/1.1 ")) {
                status = Integer.parseInt(text.substring(9, 12));
            }
            boolean wasClosed = closed < deadline;
            return new Client(status, answered == null ? null : Duration.ofNanos(answered - start),
                    wasClosed ? Duration.ofNanos(closed - start) : null);
        } catch (IOException e) {
            return new Client(status, null, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    private static String head(String authorization, int contentLength) {
        return "POST /api/v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + (authorization == null ? "" : authorization + "\r\n") + "Content-Length: " + contentLength + "\r\n\r\n";
    }

    private static String statusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
            line.append((char) c);
        }
        return line.toString();
    }

    String markdown(List<Phase> phases) {
        StringBuilder md = new StringBuilder();
        md.append(settings.clients()).append(" connections at once post a body declared as 8 MiB, send part of it and stall for ")
                .append(settings.stall().toSeconds()).append(" s; the collector in its own JVM with the launcher's options, ")
                .append("after 200 good reports. RSS from `/proc/<pid>/status`, sampled every 50 ms.\n\n");
        md.append("| uploads | sent each | RSS before | RSS peak | rise | RSS after | answers | slowest answer | closed by the collector | slowest close |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        for (Phase p : phases) {
            md.append("| ").append(p.name()).append(" | ").append(mib(p.sentBytesEach())).append(" | ").append(mib(p.rssBeforeBytes()))
                    .append(" | ").append(mib(p.rssPeakBytes())).append(" | ").append(mib(p.rssPeakBytes() - p.rssBeforeBytes()))
                    .append(" | ").append(mib(p.rssAfterBytes())).append(" | ").append(p.answered()).append(" × ").append(p.statuses())
                    .append(" | ").append(p.slowestAnswer() == null ? "-" : seconds(p.slowestAnswer()))
                    .append(" | ").append(p.closed()).append(" of ").append(p.clients())
                    .append(" | ").append(p.slowestClose() == null ? "-" : seconds(p.slowestClose())).append(" |\n");
        }
        return md.toString();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.2f s", d.toMillis() / 1000.0);
    }
}
