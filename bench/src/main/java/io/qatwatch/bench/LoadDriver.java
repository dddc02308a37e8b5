package io.qatwatch.bench;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;

/**
 * Posts simulated agents' reports to a server on loopback, over many keep-alive connections.
 *
 * <p>Open loop ({@link #fixedRate}): request {@code i} is due at {@code start + i/rate} whether or not
 * earlier ones have been answered, and its latency is measured from that due time, so a stalled server
 * is charged for the requests it delayed (no coordinated omission). Closed loop ({@link #maxRate}):
 * {@code concurrency} senders each send the next report as soon as the previous one is answered.
 */
public final class LoadDriver implements AutoCloseable {

    /** One agent the driver plays: its report template and its bearer token. */
    public record Agent(ReportTemplate template, String token) {
    }

    /** What one run measured. {@code targetRate} is 0 for the closed-loop (max) run. */
    public record Run(double targetRate, int concurrency, long sent, long accepted, long failed,
            TreeMap<Integer, Long> statuses, Duration measured, LatencyRecorder latencies) {

        public double acceptedPerSecond() {
            return accepted / (measured.toNanos() / 1e9);
        }
    }

    private static final long TICK_MS = 1;

    private final Vertx vertx;
    private final HttpClient client;
    private final List<Agent> agents;
    private final long[] nextSequence;
    private final RequestOptions target;

    public LoadDriver(int port, String path, List<Agent> agents, int connections) {
        if (agents.isEmpty()) {
            throw new IllegalArgumentException("the load driver needs at least one agent");
        }
        this.vertx = Vertx.vertx();
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(connections));
        this.agents = agents;
        this.nextSequence = new long[agents.size()];
        this.target = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
                .setURI(path).putHeader("Content-Type", "application/json");
    }

    /** Open loop at {@code rate} reports/s for {@code duration}; waits for the stragglers before returning. */
    public Run fixedRate(double rate, Duration duration) throws Exception {
        Context context = vertx.getOrCreateContext();
        Promise<Run> done = Promise.promise();
        context.runOnContext(v -> new OpenLoop(rate, duration, done).start());
        return done.future().await(duration.toSeconds() + 120, java.util.concurrent.TimeUnit.SECONDS);
    }

    /**
     * Open loop at {@code rate} reports/s until {@code stop} says so (read on each 1 ms tick: a volatile flag, not a
     * request) or {@code max} has passed; each accepted report's due time and latency also go to {@code timeline}.
     */
    public Run fixedRateUntil(double rate, Duration max, java.util.function.BooleanSupplier stop, Timeline timeline)
            throws Exception {
        Context context = vertx.getOrCreateContext();
        Promise<Run> done = Promise.promise();
        context.runOnContext(v -> new OpenLoop(rate, max, done, stop, timeline).start());
        return done.future().await(max.toSeconds() + 120, java.util.concurrent.TimeUnit.SECONDS);
    }

    /**
     * One request each of {@code count} bodies, made when sent ({@code body}), {@code concurrency} at a time (closed
     * loop): e.g. new agents' first reports, too large to hold together.
     */
    public Run each(int count, java.util.function.IntFunction<Body> body, int concurrency) throws Exception {
        Context context = vertx.getOrCreateContext();
        Promise<Run> done = Promise.promise();
        long start = System.nanoTime();
        Tally tally = new Tally();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        Runnable[] sendNext = new Runnable[1];
        sendNext[0] = () -> {
            int i = next.getAndIncrement();
            if (i >= count) {
                if (tally.inFlight == 0) {
                    done.tryComplete(new Run(0, concurrency, tally.sent, tally.accepted, tally.failed, tally.statuses,
                            Duration.ofNanos(System.nanoTime() - start), tally.latencies));
                }
                return;
            }
            long sentAt = System.nanoTime();
            tally.inFlight++;
            tally.sent++;
            Body b = body.apply(i);
            client.request(new RequestOptions(target).putHeader("Authorization", "Bearer " + b.token()))
                    .compose(request -> request.send(Buffer.buffer(b.bytes())))
                    .compose(response -> response.body().map(ignored -> response.statusCode()))
                    .onComplete(outcome -> {
                        if (outcome.failed() && tally.failed == 0) {
                            System.err.println("[bench] the first request that failed: " + outcome.cause());
                        }
                        tally.completed(outcome, sentAt);
                        sendNext[0].run();
                    });
        };
        context.runOnContext(v -> {
            for (int c = 0; c < concurrency; c++) {
                sendNext[0].run();
            }
        });
        return done.future().await(3600, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** A request body of its own (not from a template) and the token it is sent with. */
    public record Body(String token, byte[] bytes) {
    }

    /** Closed loop with {@code concurrency} senders for {@code duration}: the most the server sustains. */
    public Run maxRate(int concurrency, Duration duration) throws Exception {
        Context context = vertx.getOrCreateContext();
        Promise<Run> done = Promise.promise();
        context.runOnContext(v -> new ClosedLoop(concurrency, duration, done).start());
        return done.future().await(duration.toSeconds() + 120, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Sends the next report of the agent at {@code slot}; completes with the HTTP status. Runs on the driver's context. */
    private Future<Integer> send(long slot) {
        int a = (int) (slot % agents.size());
        Agent agent = agents.get(a);
        byte[] body = agent.template().render(nextSequence[a]++);
        return client.request(new RequestOptions(target).putHeader("Authorization", "Bearer " + agent.token()))
                .compose(request -> request.send(Buffer.buffer(body)))
                .compose(response -> response.body().map(ignored -> response.statusCode()));
    }

    /** Tally of one run, touched only on the driver's context. */
    private static final class Tally {
        final LatencyRecorder latencies = new LatencyRecorder();
        final TreeMap<Integer, Long> statuses = new TreeMap<>();
        long sent;
        long accepted;
        long failed;
        long inFlight;

        Timeline timeline;

        void completed(AsyncResult<Integer> outcome, long fromNanos) {
            inFlight--;
            if (outcome.succeeded()) {
                statuses.merge(outcome.result(), 1L, Long::sum);
                if (outcome.result() == 202) {
                    accepted++;
                    long latency = System.nanoTime() - fromNanos;
                    latencies.record(latency);
                    if (timeline != null) {
                        timeline.record(fromNanos, latency);
                    }
                    return;
                }
            } else {
                statuses.merge(-1, 1L, Long::sum);
            }
            failed++;
        }
    }

    private final class OpenLoop {
        private final double rate;
        private long durationNanos;
        private final Promise<Run> done;
        private final Tally tally = new Tally();
        private final java.util.function.BooleanSupplier stop;
        private long startNanos;
        private long timer;

        OpenLoop(double rate, Duration duration, Promise<Run> done) {
            this(rate, duration, done, () -> false, null);
        }

        OpenLoop(double rate, Duration duration, Promise<Run> done, java.util.function.BooleanSupplier stop,
                Timeline timeline) {
            this.rate = rate;
            this.durationNanos = duration.toNanos();
            this.done = done;
            this.stop = stop;
            tally.timeline = timeline;
        }

        void start() {
            startNanos = System.nanoTime();
            timer = vertx.setPeriodic(TICK_MS, t -> tick());
        }

        private void tick() {
            long elapsed = System.nanoTime() - startNanos;
            if (elapsed < durationNanos && stop.getAsBoolean()) {
                durationNanos = elapsed;
            }
            long due = (long) (Math.min(elapsed, durationNanos) / 1e9 * rate);
            while (tally.sent < due) {
                long intended = startNanos + (long) (tally.sent / rate * 1e9);
                tally.inFlight++;
                send(tally.sent++).onComplete(outcome -> {
                    tally.completed(outcome, intended);
                    maybeDone();
                });
            }
            if (elapsed >= durationNanos) {
                vertx.cancelTimer(timer);
                timer = -1;
                maybeDone();
            }
        }

        private void maybeDone() {
            if (timer < 0 && tally.inFlight == 0) {
                done.tryComplete(new Run(rate, 0, tally.sent, tally.accepted, tally.failed, tally.statuses,
                        Duration.ofNanos(durationNanos), tally.latencies));
            }
        }
    }

    private final class ClosedLoop {
        private final int concurrency;
        private final long durationNanos;
        private final Promise<Run> done;
        private final Tally tally = new Tally();
        private long startNanos;

        ClosedLoop(int concurrency, Duration duration, Promise<Run> done) {
            this.concurrency = concurrency;
            this.durationNanos = duration.toNanos();
            this.done = done;
        }

        void start() {
            startNanos = System.nanoTime();
            for (int i = 0; i < concurrency; i++) {
                next();
            }
        }

        private void next() {
            if (System.nanoTime() - startNanos >= durationNanos) {
                if (tally.inFlight == 0) {
                    done.tryComplete(new Run(0, concurrency, tally.sent, tally.accepted, tally.failed, tally.statuses,
                            Duration.ofNanos(System.nanoTime() - startNanos), tally.latencies));
                }
                return;
            }
            long sentAt = System.nanoTime();
            tally.inFlight++;
            send(tally.sent++).onComplete(outcome -> {
                tally.completed(outcome, sentAt);
                next();
            });
        }
    }

    @Override
    public void close() throws Exception {
        client.close().await(10, java.util.concurrent.TimeUnit.SECONDS);
        vertx.close().await(10, java.util.concurrent.TimeUnit.SECONDS);
    }
}
