package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.sqlserver.HighWaterMarks;
import io.qatwatch.agent.probe.sqlserver.HistoryMarks;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlProbeResult;
import io.qatwatch.agent.probe.sqlserver.SqlSection;
import io.qatwatch.agent.ship.DeliveryVerticle;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one SQL Server instance on its cadence (see {@link SqlCadence}), off the event loop, and
 * publishes one report per read. The high-water marks (backups, job runs, CommandLog, restores) move only after
 * that report is in the outbox; a full page of history is followed by the next page after {@code schedule.backupCatchUp},
 * as soon as the outbox holds no more than the report being delivered (else after the next delivery), and when such a
 * catch-up ends (the backlog of a large msdb is read), {@code caughtUp} runs once, off the event loop.
 */
public final class SqlInstanceVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(SqlInstanceVerticle.class);
    /** Reports the outbox may hold while the next backlog page is read: the one being delivered. */
    static final int BACKLOG_AHEAD = 1;

    private final String instance;
    private final SqlInstanceProbe probe;
    private final ReportPublisher publisher;
    private final HighWaterMarks marks;
    private final SqlCadence cadence;
    private final Clock clock;
    private final Runnable caughtUp;
    private boolean catchingUp;
    private long timer = -1;
    private boolean running;
    private boolean stopping;
    private Promise<Void> idle;
    private MessageConsumer<Object> deliveries;
    /** The next backlog page waits for a delivery (the outbox was behind when the next read was scheduled). */
    private boolean awaitingDelivery;

    /** @param caughtUp what to do when a catch-up over full pages of backup history has ended */
    public SqlInstanceVerticle(String instance, SqlInstanceProbe probe, ReportPublisher publisher, HighWaterMarks marks,
                               io.qatwatch.agent.config.AgentConfig.Schedule schedule, Clock clock, Runnable caughtUp) {
        this.instance = instance;
        this.caughtUp = caughtUp;
        this.probe = probe;
        this.publisher = publisher;
        this.marks = marks;
        this.cadence = new SqlCadence(schedule);
        this.clock = clock;
    }

    @Override
    public Future<?> start() {
        deliveries = vertx.eventBus().localConsumer(DeliveryVerticle.DELIVERED_ADDRESS, m -> delivered());
        tick();
        return deliveries.completion();
    }

    @Override
    public Future<?> stop() {
        stopping = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (deliveries != null) {
            deliveries.unregister();
        }
        if (!running) {
            return Future.succeededFuture();
        }
        idle = Promise.promise();
        return idle.future();
    }

    private void tick() {
        timer = -1;
        if (stopping) {
            return;
        }
        cadence.outboxBehind(outboxBehind());
        Set<SqlSection> due = cadence.due(clock.instant());
        if (due.isEmpty()) {
            scheduleNext();
            return;
        }
        running = true;
        vertx.executeBlocking(() -> {
                    HistoryMarks current = marks.of(instance);
                    return probe.probeAfter(due, due.contains(SqlSection.BACKUP_HISTORY) ? current : new HistoryMarks(null,
                            current.jobHistoryId(), current.commandLogId(), current.restoreHistoryId()));
                }, false)
                .compose(result -> publisher.publishInstance(result.snapshot(), result.probes()).map(r -> result))
                .compose(result -> advanceCursor(due, result).map(v -> result))
                .onComplete(ar -> {
                    running = false;
                    if (ar.succeeded()) {
                        boolean more = ar.result().moreBackupsPending();
                        cadence.ran(due, clock.instant(), more);
                        if (due.contains(SqlSection.BACKUP_HISTORY)) {
                            caughtUp(more);
                        }
                    } else {
                        LOG.error("SQL Server {}: cycle failed, will try again on schedule: {}", instance, ar.cause().toString());
                        cadence.ran(due, clock.instant(), false);
                    }
                    if (idle != null) {
                        idle.tryComplete();
                    }
                    scheduleNext();
                });
    }

    private void caughtUp(boolean more) {
        boolean ended = catchingUp && !more;
        catchingUp = more;
        if (ended) {
            LOG.info("SQL Server {}: backup history caught up", instance);
            vertx.executeBlocking(() -> {
                caughtUp.run();
                return null;
            }, false);
        }
    }

    private Future<Void> advanceCursor(Set<SqlSection> due, SqlProbeResult result) {
        SqlInstanceSnapshot snapshot = result.snapshot();
        if (snapshot == null) {
            return Future.succeededFuture();
        }
        HistoryMarks current = marks.of(instance);
        Long backups = due.contains(SqlSection.BACKUP_HISTORY) ? snapshot.backupHighWaterMark() : null;
        boolean backupsMoved = backups != null && (current.backupSetId() == null || current.backupSetId() < backups);
        // The other histories' marks may also go down: the probe starts one again when msdb's ids restarted.
        Map<HighWaterMarks.History, Long> moved = new EnumMap<>(HighWaterMarks.History.class);
        moved(moved, due, SqlSection.JOB_HISTORY, HighWaterMarks.History.JOB_HISTORY, snapshot.jobHistoryHighWaterMark(),
                current.jobHistoryId());
        moved(moved, due, SqlSection.COMMAND_LOG, HighWaterMarks.History.COMMAND_LOG, snapshot.commandLogHighWaterMark(),
                current.commandLogId());
        moved(moved, due, SqlSection.RESTORES, HighWaterMarks.History.RESTORES, snapshot.restoreHighWaterMark(),
                current.restoreHistoryId());
        if (!backupsMoved && moved.isEmpty()) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> {
            if (backupsMoved) {
                marks.put(instance, backups);
            }
            moved.forEach((history, id) -> marks.put(instance, history, id));
            return null;
        });
    }

    /** A report left the outbox: a backlog page that waited for it may be read now. */
    private void delivered() {
        if (stopping || running || timer < 0 || !awaitingDelivery || outboxBehind()) {
            return;
        }
        vertx.cancelTimer(timer);
        tick();
    }

    private boolean outboxBehind() {
        return publisher.outboxDepth() > BACKLOG_AHEAD;
    }

    private static void moved(Map<HighWaterMarks.History, Long> into, Set<SqlSection> due, SqlSection section,
            HighWaterMarks.History history, Long read, Long current) {
        if (due.contains(section) && read != null && !read.equals(current)) {
            into.put(history, read);
        }
    }

    private void scheduleNext() {
        if (stopping) {
            return;
        }
        boolean behind = outboxBehind();
        cadence.outboxBehind(behind);
        awaitingDelivery = behind && cadence.catchingUp();
        Duration wait = cadence.untilNext(clock.instant());
        timer = vertx.setTimer(Math.max(1, wait.toMillis()), id -> tick());
    }
}
