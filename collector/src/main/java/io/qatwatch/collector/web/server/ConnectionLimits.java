package io.qatwatch.collector.web.server;

import io.qatwatch.collector.metrics.MetricsSource;
import io.qatwatch.collector.metrics.PrometheusText;
import io.qatwatch.collector.metrics.PrometheusText.Type;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Holds at most {@code listen.maxConnections} connections at once, and at most {@code listen.maxConnectionsPerAddress}
 * from one client address: one more is closed as it opens, before a byte of it is read, and counted. So a flood of
 * idle or trickling connections (each closed at {@code ingest.headerTimeoutSeconds} anyway) holds a bounded number of
 * descriptors and buffers, and one address cannot take the slots of the others.
 */
final class ConnectionLimits implements MetricsSource {

    private final int maxTotal;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<String, AtomicInteger> perAddress = new ConcurrentHashMap<>();
    private final LongAdder refusedTotal = new LongAdder();
    private final LongAdder refusedPerAddress = new LongAdder();

    ConnectionLimits(int maxTotal, int maxPerAddress) {
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * Takes a slot for a connection that just opened, freed when it closes; false, with the connection closed and the
     * refusal counted, when either limit is reached.
     */
    boolean admit(HttpConnection connection) {
        SocketAddress remote = connection.remoteAddress();
        String address = remote == null || remote.hostAddress() == null ? "" : remote.hostAddress();
        if (open.incrementAndGet() > maxTotal) {
            open.decrementAndGet();
            refuse(connection, refusedTotal);
            return false;
        }
        AtomicInteger fromAddress = perAddress.compute(address, (a, n) -> n == null ? new AtomicInteger() : n);
        if (fromAddress.incrementAndGet() > maxPerAddress) {
            release(address, fromAddress);
            refuse(connection, refusedPerAddress);
            return false;
        }
        // the connection's one close handler is HeaderDeadline's; its close future serves more than one listener
        closeFuture(connection).onComplete(done -> release(address, fromAddress));
        return true;
    }

    private void release(String address, AtomicInteger fromAddress) {
        open.decrementAndGet();
        // an address whose last connection closed leaves the map, so a scan of many addresses leaves nothing behind
        perAddress.computeIfPresent(address, (a, n) -> n.decrementAndGet() == 0 ? null : n);
    }

    private static void refuse(HttpConnection connection, LongAdder counter) {
        counter.increment();
        if (connection instanceof ConnectionBase base) {
            // the channel itself: no graceful shutdown to wait for, nothing read
            base.channel().close();
        } else {
            connection.close();
        }
    }

    private static io.vertx.core.Future<Void> closeFuture(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            return base.closeFuture();
        }
        throw new IllegalStateException("not a Vert.x connection: " + connection.getClass());
    }

    /** Connections held now. */
    int open() {
        return open.get();
    }

    /** Client addresses with a connection held now. */
    int addresses() {
        return perAddress.size();
    }

    @Override
    public void writeTo(PrometheusText out) {
        out.family("qatwatch_connections_open", Type.GAUGE,
                "HTTP connections the collector holds now (at most listen.maxConnections).").sample(open.get());
        out.family("qatwatch_connections_refused_total", Type.COUNTER, "Connections closed as they opened because "
                        + "listen.maxConnections (limit total) or listen.maxConnectionsPerAddress (limit per_address) was reached.")
                .sample(Map.of("limit", "total"), refusedTotal.sum())
                .sample(Map.of("limit", "per_address"), refusedPerAddress.sum());
    }
}
