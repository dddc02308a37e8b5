package io.qatwatch.collector.web;

import java.util.List;

/** Where the HTTP(S) server listens ({@code listen:}). Loopback by default: expose it on purpose. */
public record ListenConfig(String host, int port) {

    public static final ListenConfig DEFAULTS = new ListenConfig("127.0.0.1", 8470);

    /** This section with what the file left out taken from the defaults. */
    public ListenConfig withDefaults() {
        return new ListenConfig(host == null ? DEFAULTS.host : host, port == 0 && host == null ? DEFAULTS.port : port);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (host == null || host.isBlank()) {
            problems.add("listen.host: must name an address to listen on, e.g. 127.0.0.1 or 0.0.0.0");
        }
        if (port < 0 || port > 65535) {
            problems.add("listen.port: must be 0..65535 (0 picks a free port), was " + port);
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
