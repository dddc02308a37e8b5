package io.qatwatch.collector.web;

import java.util.List;

/**
 * Where the HTTP(S) server listens ({@code listen:}), and how many connections it holds. Loopback by default: expose
 * it on purpose.
 *
 * @param maxConnections           connections held at once, from everyone; one more is closed at once, unread
 * @param maxConnectionsPerAddress connections held at once from one client address (IPv4 or IPv6); one more is closed
 *                                 at once, unread. Behind a proxy or a NAT every client has its address: raise it
 */
public record ListenConfig(String host, int port, int maxConnections, int maxConnectionsPerAddress) {

    public static final ListenConfig DEFAULTS = new ListenConfig("127.0.0.1", 8470, 4096, 64);

    /** {@code host:port} with the default connection limits. */
    public ListenConfig(String host, int port) {
        this(host, port, DEFAULTS.maxConnections, DEFAULTS.maxConnectionsPerAddress);
    }

    /** This section with what the file left out taken from the defaults. */
    public ListenConfig withDefaults() {
        return new ListenConfig(host == null ? DEFAULTS.host : host, port == 0 && host == null ? DEFAULTS.port : port,
                maxConnections == 0 ? DEFAULTS.maxConnections : maxConnections,
                maxConnectionsPerAddress == 0 ? DEFAULTS.maxConnectionsPerAddress : maxConnectionsPerAddress);
    }

    /** As this, on {@code host:port}, with the same connection limits. */
    public ListenConfig at(String newHost, int newPort) {
        return new ListenConfig(newHost, newPort, maxConnections, maxConnectionsPerAddress);
    }

    /** As this, with other connection limits (tests and drills of connection floods). */
    public ListenConfig withConnectionLimits(int total, int perAddress) {
        return new ListenConfig(host, port, total, perAddress);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (host == null || host.isBlank()) {
            problems.add("listen.host: must name an address to listen on, e.g. 127.0.0.1 or 0.0.0.0");
        }
        if (port < 0 || port > 65535) {
            problems.add("listen.port: must be 0..65535 (0 picks a free port), was " + port);
        }
        if (maxConnections < 1 || maxConnections > 1_000_000) {
            problems.add("listen.maxConnections: must be between 1 and 1000000, was " + maxConnections);
        }
        if (maxConnectionsPerAddress < 1 || maxConnectionsPerAddress > maxConnections) {
            problems.add("listen.maxConnectionsPerAddress: must be between 1 and listen.maxConnections ("
                    + maxConnections + "), was " + maxConnectionsPerAddress);
        }
    }

    /** Whether {@code host} is a loopback address (127.0.0.0/8, ::1, localhost): reachable from this machine only. */
    public static boolean isLoopback(String host) {
        String h = host == null ? "" : host.trim().toLowerCase(java.util.Locale.ROOT);
        return h.startsWith("127.") || h.equals("::1") || h.equals("[::1]") || h.equals("0:0:0:0:0:0:0:1") || h.equals("localhost");
    }

    /**
     * The warning to give at start when this listens beyond loopback without TLS, naming the settings; empty otherwise.
     */
    public java.util.Optional<String> plainTextWarning(TlsConfig tls) {
        if (tls.enabled() || isLoopback(host)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("listen.host is " + host + ", beyond loopback, and tls is not set (tls.certFile, tls.keyFile):"
                + " agent tokens, read tokens and status page sessions cross the network in clear text. Set tls.certFile and"
                + " tls.keyFile, or keep listen.host: 127.0.0.1 behind a proxy that terminates TLS.");
    }
}
