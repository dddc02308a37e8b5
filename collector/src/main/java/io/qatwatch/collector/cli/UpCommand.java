package io.qatwatch.collector.cli;

import io.qatwatch.collector.AlertStage;
import io.qatwatch.collector.Collector;
import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code qatwatch up}: the newcomer's command. Starts a collector on loopback with its embedded store,
 * enrolls this host's agent (once; the token is kept in the data directory), starts the agent as a child
 * process, prints the status page URL, and stops both on Ctrl-C.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start a collector on 127.0.0.1 and a local agent that probes this host; Ctrl-C stops both.")
public final class UpCommand implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "DIR",
            description = "Data directory (default: $QATWATCH_DATA, else ./.qatwatch): the collector's store DIR/qatwatch.db,"
                    + " the one 'qatwatch collector token' uses, and the local agent's DIR/agent/.")
    Path data;

    @Option(names = "--port", defaultValue = "8470",
            description = "Collector port on 127.0.0.1 (default: ${DEFAULT-VALUE}); the local agent's health check listens on the next one.")
    int port;

    @Option(names = "--sql", paramLabel = "JDBC_URL",
            description = "Also probe this SQL Server (default: $QATWATCH_SQL_URL), e.g. jdbc:sqlserver://db01:1433")
    String sqlUrl;

    @Option(names = "--sql-user", paramLabel = "USER", description = "SQL login (default: $QATWATCH_SQL_USER).")
    String sqlUser;

    @Option(names = "--sql-password-file", paramLabel = "FILE",
            description = "File holding the SQL login's password (default: $QATWATCH_SQL_PASSWORD_FILE).")
    Path sqlPasswordFile;

    @Option(names = "--no-agent", description = "Start only the collector.")
    boolean noAgent;

    @Override
    public Integer call() throws Exception {
        Path dataDir = DataDir.resolve(data);
        try {
            DataDir.moveOldUpLayout(dataDir).ifPresent(moved -> System.err.println("up: " + moved));
        } catch (java.io.IOException e) {
            System.err.println("up: " + DataDir.whatToDo(dataDir, e));
            return 1;
        }
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1", port)
                .withStatusPage("http://127.0.0.1:" + port + "/");
        Vertx vertx = Vertx.vertx();
        Collector collector;
        Duration startWait = StartTimeout.of(config, dataDir);
        try {
            collector = AlertStage.startCollector(vertx, config, dataDir, Clock.systemUTC())
                    .await(startWait.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            System.err.println("up: the collector " + StartTimeout.exceeded(startWait));
            vertx.close();
            return 1;
        } catch (Exception e) {
            System.err.println("up: the collector could not start on 127.0.0.1:" + port + ": " + e.getMessage()
                    + (e.getMessage() != null && e.getMessage().contains("in use")
                    ? " (is another qatwatch running? try --port)" : ""));
            vertx.close();
            return 1;
        }
        String url = "http://127.0.0.1:" + collector.port() + "/";
        Process agent = null;
        if (!noAgent) {
            try {
                Path agentDir = dataDir.resolve("agent");
                Path agentConfig = enrollLocalAgent(collector.tokens(), agentDir, collector.port());
                agent = startAgent(agentConfig, agentDir);
            } catch (Exception e) {
                System.err.println("up: the local agent could not start: " + e.getMessage());
            }
        }
        System.out.println("qatwatch is up.");
        System.out.println("  status page: " + url);
        System.out.println("  health:      " + url + "healthz");
        System.out.println("  data:        " + dataDir + " (store " + DataDir.store(dataDir) + ")");
        System.out.println("Press Ctrl-C to stop.");
        System.out.flush();

        Process child = agent;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (child != null && child.isAlive()) {
                child.destroy();
                try {
                    if (!child.waitFor(15, TimeUnit.SECONDS)) {
                        child.destroyForcibly();
                    }
                } catch (InterruptedException ignored) {
                    child.destroyForcibly();
                }
            }
            CollectorCommand.stop(collector, vertx);
            stopped.countDown();
        }, "qatwatch-up-stop"));
        stopped.await();
        return 0;
    }

    /** Issues the local agent's token once and writes its config; later runs reuse both. */
    Path enrollLocalAgent(TokenStore tokens, Path agentDir, int collectorPort) throws Exception {
        Files.createDirectories(agentDir);
        Path tokenFile = agentDir.resolve("token");
        if (!Files.exists(tokenFile)) {
            String name = localHostName();
            tokens.revoke(name, Instant.now());
            String token = tokens.add(name, TokenStore.Kind.AGENT, Instant.now());
            writePrivate(tokenFile, token + "\n");
        }
        Path config = agentDir.resolve("agent.yaml");
        StringBuilder yaml = new StringBuilder()
                .append("# written by 'qatwatch up'; rewritten on every run\n")
                .append("collector:\n")
                .append("  url: http://127.0.0.1:").append(collectorPort).append("\n")
                .append("  tokenFile: ").append(quote(tokenFile.toString())).append("\n")
                // next to the collector's port, so that a second 'up --port N' does not collide with the first one's agent
                .append("health:\n  port: ").append(collectorPort == 0 || collectorPort >= 65535 ? 0 : collectorPort + 1).append("\n");
        String url = sqlUrl != null ? sqlUrl : System.getenv("QATWATCH_SQL_URL");
        if (url != null && !url.isBlank()) {
            String user = sqlUser != null ? sqlUser : System.getenv("QATWATCH_SQL_USER");
            Path passwordFile = sqlPasswordFile != null ? sqlPasswordFile
                    : envPath("QATWATCH_SQL_PASSWORD_FILE");
            yaml.append("sqlserver:\n  instances:\n    - name: local\n")
                    .append("      jdbcUrl: ").append(quote(url)).append("\n");
            if (user != null) {
                yaml.append("      user: ").append(quote(user)).append("\n");
            }
            if (passwordFile != null) {
                yaml.append("      passwordFile: ").append(quote(passwordFile.toAbsolutePath().toString())).append("\n");
            }
        }
        writePrivate(config, yaml.toString());
        return config;
    }

    private Process startAgent(Path config, Path agentDir) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path jar = agentJar();
        List<String> command = new ArrayList<>();
        command.add(java);
        String opts = System.getProperty("qatwatch.agentJavaOpts", System.getenv("QATWATCH_AGENT_JAVA_OPTS"));
        if (opts != null && !opts.isBlank()) {
            command.addAll(List.of(opts.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "agent", "--config", config.toString(),
                "--data", agentDir.toString()));
        return new ProcessBuilder(command).inheritIO().start();
    }

    /** The agent jar: named by the launcher, else beside this jar (packaged), else in the build tree. */
    static Path agentJar() throws IOException {
        String named = System.getProperty("qatwatch.agentJar");
        if (named != null && Files.isRegularFile(Path.of(named))) {
            return Path.of(named);
        }
        try {
            Path self = Path.of(UpCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(self) ? self : self.getParent();
            for (Path candidate : List.of(dir.resolve("qatwatch-agent.jar"),
                    dir.resolve("../../agent/target/qatwatch-agent-all.jar").normalize())) {
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
            }
        } catch (java.net.URISyntaxException ignored) {
            // fall through to the error below
        }
        throw new IOException("agent jar not found; build it with 'mvn -B -DskipTests package' or set -Dqatwatch.agentJar");
    }

    private static String localHostName() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = "localhost";
        }
        int dot = name.indexOf('.');
        name = (dot > 0 ? name.substring(0, dot) : name).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
        return TokenStore.NAME.matcher(name).matches() ? name : "localhost";
    }

    private static Path envPath(String variable) {
        String value = System.getenv(variable);
        return value == null || value.isBlank() ? null : Path.of(value);
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static void writePrivate(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException ignored) {
            // Windows: the data directory's ACL applies
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
