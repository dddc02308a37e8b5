package io.qatwatch.agent.ship;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the outbox to the collector, oldest first, one report at a time: delivered reports leave the
 * outbox, refused ones are parked, anything else waits for the backoff (or the collector's
 * {@code Retry-After}) and is tried again. Publish to {@link #WAKE_ADDRESS} after an append.
 */
public final class DeliveryVerticle extends VerticleBase {

    /** Local event-bus address: "the outbox has something new". */
    public static final String WAKE_ADDRESS = "qatwatch.outbox.appended";
    /** Published (no body) each time the collector accepted a report and it left the outbox. */
    public static final String DELIVERED_ADDRESS = "qatwatch.outbox.delivered";

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryVerticle.class);

    private final Outbox outbox;
    private final CollectorClient client;
    private final Backoff backoff;
    private final Clock clock;
    private final boolean gzip;
    private final DeliveryStatus status;
    private MessageConsumer<Object> wakeConsumer;
    private boolean busy;
    private long retryTimer = -1;
    private boolean stopping;
    private Promise<Void> idle;
    private String lastLoggedFailure;

    public DeliveryVerticle(Outbox outbox, CollectorClient client, Backoff backoff, Clock clock, boolean gzip, DeliveryStatus status) {
        this.outbox = outbox;
        this.client = client;
        this.backoff = backoff;
        this.clock = clock;
        this.gzip = gzip;
        this.status = status;
    }

    @Override
    public Future<?> start() {
        wakeConsumer = vertx.eventBus().localConsumer(WAKE_ADDRESS, msg -> pump());
        pump();
        return wakeConsumer.completion();
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        if (retryTimer >= 0) {
            vertx.cancelTimer(retryTimer);
        }
        Future<Void> unregistered = wakeConsumer == null ? Future.succeededFuture() : wakeConsumer.unregister();
        if (!busy) {
            return unregistered.eventually(() -> closeClient());
        }
        idle = Promise.promise();
        return unregistered.compose(v -> idle.future()).eventually(() -> closeClient());
    }

    private Future<Void> closeClient() {
        client.close();
        return Future.succeededFuture();
    }

    /** Sends the next report unless a send is under way or a retry is scheduled. */
    private void pump() {
        if (busy || retryTimer >= 0 || stopping) {
            return;
        }
        busy = true;
        vertx.executeBlocking(this::nextPayload)
                .compose(next -> next.isEmpty() ? Future.succeededFuture(false) : send(next.get()))
                .onComplete(ar -> {
                    busy = false;
                    if (ar.failed()) {
                        LOG.error("outbox unreadable, delivery paused for {}: {}", outbox.directory(), ar.cause().toString());
                        scheduleRetry(backoff.longest());
                    }
                    if (stopping) {
                        if (idle != null) {
                            idle.tryComplete();
                        }
                        return;
                    }
                    if (ar.succeeded() && ar.result()) {
                        pump();
                    }
                });
    }

    private record Payload(Outbox.Pending report, byte[] wire) {
    }

    private Optional<Payload> nextPayload() throws IOException {
        Optional<Outbox.Pending> next = outbox.peek();
        if (next.isEmpty()) {
            return Optional.empty();
        }
        byte[] body = next.get().body();
        return Optional.of(new Payload(next.get(), gzip ? gzip(body) : body));
    }

    /** Sends one report and acts on the answer; true when the next report may go at once. */
    private Future<Boolean> send(Payload payload) {
        Outbox.Pending report = payload.report();
        return client.post(payload.wire(), gzip)
                .map(answer -> DeliveryDecision.of(answer.status(), answer.retryAfter(), answer.body(), clock.instant()))
                .recover(noAnswer -> Future.succeededFuture(new DeliveryDecision.Retry(
                        "no answer from " + client.reportsUri() + ": " + describe(noAnswer), null)))
                .compose(decision -> act(report, decision));
    }

    private Future<Boolean> act(Outbox.Pending report, DeliveryDecision decision) {
        if (decision instanceof DeliveryDecision.Delivered) {
            return vertx.executeBlocking(() -> {
                outbox.acknowledge(report.seq());
                return true;
            }).onSuccess(v -> {
                if (backoff.failures() > 0) {
                    LOG.info("collector reachable again; delivering the outbox ({} waiting)", outbox.stats().depth());
                }
                backoff.reset();
                lastLoggedFailure = null;
                status.delivered(clock.instant());
                vertx.eventBus().publish(DELIVERED_ADDRESS, null);
            });
        }
        if (decision instanceof DeliveryDecision.Refused refused) {
            return vertx.executeBlocking(() -> outbox.park(report.seq(), refused.reason())).map(copy -> {
                LOG.error("collector refused report {} ({}); it will not be retried. Parked copy: {}. "
                                + "This is a bug in the agent or a version mismatch with the collector: please report it.",
                        report.reportId(), refused.reason(), copy.map(Object::toString).orElse("(gone)"));
                status.failed(clock.instant(), "report " + report.reportId() + " refused: " + refused.reason(), null);
                return true;
            });
        }
        Duration wait;
        String reason;
        if (decision instanceof DeliveryDecision.Misconfigured wrong) {
            reason = wrong.reason() + " — check collector.url and the agent token (collector.tokenFile)";
            wait = backoff.longest();
        } else {
            DeliveryDecision.Retry retry = (DeliveryDecision.Retry) decision;
            reason = retry.reason();
            Duration jittered = backoff.next();
            wait = retry.retryAfter() != null ? retry.retryAfter() : jittered;
        }
        Instant now = clock.instant();
        status.failed(now, reason, now.plus(wait));
        if (!reason.equals(lastLoggedFailure)) {
            LOG.warn("delivery of report {} failed ({}); {} report(s) wait in the outbox, next try in {} ms",
                    report.reportId(), reason, outbox.stats().depth(), wait.toMillis());
            lastLoggedFailure = reason;
        }
        scheduleRetry(wait);
        return Future.succeededFuture(false);
    }

    private void scheduleRetry(Duration wait) {
        if (stopping) {
            return;
        }
        retryTimer = vertx.setTimer(Math.max(1, wait.toMillis()), id -> {
            retryTimer = -1;
            pump();
        });
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    static byte[] gzip(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 4));
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
