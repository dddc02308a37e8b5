package io.qatwatch.collector.testing;

import io.qatwatch.collector.store.StoreConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server (Debian's {@code postgresql} package, version 15) on a loopback port with a temporary data
 * directory: {@code initdb} and {@code pg_ctl} run as the {@code postgres} user when the tests run as root. One server
 * is shared by every test of the JVM ({@link #shared()}), each test on a schema of its own ({@link #newStore()});
 * it is stopped when the JVM exits. Password authentication over TCP, so the store's password file is exercised.
 */
public final class Postgres {

    public static final String USER = "qatwatch";
    public static final String PASSWORD = "pg-test-secret";
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static Postgres shared;

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final int port;

    private Postgres(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
    }

    /** The binaries of the newest installed PostgreSQL (15 on Debian 12), or null when none is installed. */
    public static Path binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    public static boolean installed() {
        return binaries() != null;
    }

    /** The server every test of this JVM shares, started on first use. */
    public static synchronized Postgres shared() throws Exception {
        if (shared == null) {
            Postgres p = create();
            p.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    p.stop(false);
                    p.delete();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            }, "postgres-stop"));
            shared = p;
        }
        return shared;
    }

    /** A new server, initialised but not started; the caller stops and deletes it. */
    public static Postgres create() throws Exception {
        Path bin = binaries();
        if (bin == null) {
            throw new IllegalStateException("PostgreSQL is not installed: apt-get install postgresql (./run-tests does)");
        }
        Path dir = Files.createTempDirectory("qatwatch-pg");
        Postgres p = new Postgres(bin, dir, freePort());
        Files.writeString(dir.resolve("pwfile"), PASSWORD + "\n", StandardCharsets.UTF_8);
        p.chownToServer(dir);
        p.run(List.of(bin.resolve("initdb").toString(), "-D", p.data.toString(), "-U", USER, "--pwfile",
                dir.resolve("pwfile").toString(), "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-sync"), 120);
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    /** The JDBC URL of database {@code postgres}, optionally with a schema as the current one. */
    public String url(String schema) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres" + (schema == null ? "" : "?currentSchema=" + schema);
    }

    /** Starts the server (loopback only, no Unix socket) and waits until it accepts connections. */
    public Postgres start() throws Exception {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("postgres.log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
                        + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                        + " -c shared_buffers=64MB", "start"), 90);
        return this;
    }

    /** Stops the server: {@code fast} (sessions ended, a clean shutdown) or {@code immediate} (as if it crashed). */
    public void stop(boolean immediate) throws Exception {
        if (Files.exists(data.resolve("postmaster.pid"))) {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t", "60", "-m",
                    immediate ? "immediate" : "fast", "stop"), 90);
        }
    }

    /** Removes the data directory (the server must be stopped). */
    public void delete() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** A schema of its own on this server, and a store config for it (password in a file, a small pool). */
    public StoreConfig newStore() throws Exception {
        String schema = "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        try (Connection c = connect(null); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        }
        return store(schema);
    }

    /** A store config for {@code schema}, the password read from a file as a collector reads it. */
    public StoreConfig store(String schema) throws IOException {
        Path password = dir.resolve("client-password");
        if (!Files.exists(password)) {
            Files.writeString(password, PASSWORD + "\n", StandardCharsets.UTF_8);
        }
        return StoreConfig.postgresql(url(schema), USER, password, null, 8);
    }

    /** A plain connection as the superuser (to {@code schema} when given). */
    public Connection connect(String schema) throws SQLException {
        return DriverManager.getConnection(url(schema), USER, PASSWORD);
    }

    private void chownToServer(Path path) throws Exception {
        if (isRoot()) {
            run(List.of("chown", "-R", "postgres:postgres", path.toString()), 30);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Runs a PostgreSQL tool, as the {@code postgres} user when this JVM is root (initdb refuses root). */
    private void run(List<String> command, int timeoutSeconds) throws Exception {
        List<String> full = new ArrayList<>();
        if (isRoot() && !command.get(0).equals("chown")) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path out = Files.createTempFile("qatwatch-pg-tool", ".log");
        try {
            Process p = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", full) + " did not finish in " + timeoutSeconds + " s");
            }
            if (p.exitValue() != 0) {
                String log = Files.exists(dir.resolve("postgres.log")) ? Files.readString(dir.resolve("postgres.log")) : "";
                throw new IllegalStateException(String.join(" ", full) + " exited " + p.exitValue() + ": "
                        + Files.readString(out) + log);
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
