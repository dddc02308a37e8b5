package io.qatwatch.tds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A SQL Server stand-in for tests: speaks TDS 7.4 over TCP on 127.0.0.1 (PRELOGIN without encryption,
 * LOGIN7, SQL batches, ATTENTION) and answers batches from a {@link Scenario}. Connect with the real
 * mssql-jdbc driver and {@code encrypt=false}, see {@link #jdbcUrl()}. Statements must be plain batches
 * ({@code Statement}, or {@code prepareMethod=none} for prepared ones): RPC requests get an error.
 */
public final class TdsTestServer implements AutoCloseable {

    /** One login the server saw; the password is decoded from LOGIN7's obfuscation so tests can check it was sent. */
    public record Login(String user, String password, String database, String applicationName, boolean accepted) {
    }

    private final Scenario scenario;
    private final ServerSocket listener;
    private final ExecutorService threads;
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    private final List<String> batches = new CopyOnWriteArrayList<>();
    private final List<Login> logins = new CopyOnWriteArrayList<>();

    private volatile Consumer<String> batchListener = sql -> { };

    private TdsTestServer(Scenario scenario, int port) throws IOException {
        this.scenario = scenario;
        this.listener = new ServerSocket();
        this.listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tds-test-server-" + listener.getLocalPort());
            t.setDaemon(true);
            return t;
        });
        threads.execute(this::acceptLoop);
    }

    /** Starts a server for the scenario on 127.0.0.1 and an ephemeral port. */
    public static TdsTestServer start(Scenario scenario) {
        return start(scenario, 0);
    }

    /** Starts a server for the scenario on 127.0.0.1 and {@code port} (0: an ephemeral one); a port in use is thrown. */
    public static TdsTestServer start(Scenario scenario, int port) {
        try {
            return new TdsTestServer(scenario, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port + " (" + e.getMessage() + ")", e);
        }
    }

    /** Calls {@code listener} with every SQL batch as it arrives (on the connection's thread), e.g. to log it. */
    public TdsTestServer onBatch(Consumer<String> listener) {
        this.batchListener = listener;
        return this;
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** A URL for mssql-jdbc: this server, no encryption, short login timeout; add user and password. */
    public String jdbcUrl() {
        return "jdbc:sqlserver://127.0.0.1:" + port() + ";encrypt=false;loginTimeout=5";
    }

    public Scenario scenario() {
        return scenario;
    }

    /** Every SQL batch received so far, in order, without its ALL_HEADERS. */
    public List<String> batches() {
        return new ArrayList<>(batches);
    }

    /** Every login received so far. */
    public List<Login> logins() {
        return new ArrayList<>(logins);
    }

    void recordBatch(String sql) {
        batches.add(sql);
        batchListener.accept(sql);
    }

    void recordLogin(Login login) {
        logins.add(login);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                client.setTcpNoDelay(true);
                clients.add(client);
                threads.execute(() -> {
                    try (client) {
                        new TdsSession(this, client).run();
                    } catch (IOException e) {
                        // the client went away; nothing to answer
                    } finally {
                        clients.remove(client);
                    }
                });
            } catch (SocketException closed) {
                return;
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    /** Stops listening and drops every open connection. */
    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket c : clients) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
