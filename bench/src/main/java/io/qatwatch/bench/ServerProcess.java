package io.qatwatch.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A server under test in its own JVM (so its CPU and RSS are its own): this jar's {@link ServeCommand}
 * started as a child process. It prints {@code READY <port>} once listening and writes the agents'
 * tokens to a file; closing its stdin or destroying it stops it.
 */
public final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Map<String, String> tokens;
    private final Path log;
    private final Path out;

    private ServerProcess(Process process, int port, Map<String, String> tokens, Path log, Path out) {
        this.process = process;
        this.port = port;
        this.tokens = tokens;
        this.log = log;
        this.out = out;
    }

    /**
     * Starts {@code serve <args>} with {@code jvmOptions} and waits until it listens.
     *
     * @param workDir where its log ({@code <name>.log}) and token file go
     */
    public static ServerProcess start(String name, List<String> jvmOptions, List<String> serveArgs, Path workDir)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path log = workDir.resolve(name + ".log");
        Path tokenFile = workDir.resolve(name + ".tokens");
        Files.deleteIfExists(tokenFile);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BenchMain.class.getName());
        command.add("serve");
        command.addAll(serveArgs);
        command.add("--tokens");
        command.add(tokenFile.toString());
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                int port = Integer.parseInt(line.substring(6).trim());
                Path stdout = workDir.resolve(name + ".out");
                keep(out, stdout);
                return new ServerProcess(process, port, readTokens(tokenFile), log, stdout);
            }
        }
        process.waitFor(10, TimeUnit.SECONDS);
        throw new IOException("the " + name + " server exited (" + (process.isAlive() ? "still running" : "code "
                + process.exitValue()) + ") before it was ready; see " + log);
    }

    /**
     * Copies the rest of the server's stdout to {@code file}: the JVM writes there why it ended, e.g.
     * {@code Terminating due to java.lang.OutOfMemoryError}, and an unread pipe would also block the server.
     */
    private static void keep(BufferedReader out, Path file) {
        Thread copier = new Thread(() -> {
            try (BufferedReader in = out; var w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null; ) {
                    w.write(line);
                    w.newLine();
                    w.flush();
                }
            } catch (IOException e) {
                // the server went away; what it wrote so far is in the file
            }
        }, "server-stdout");
        copier.setDaemon(true);
        copier.start();
    }

    private static Map<String, String> readTokens(Path file) throws IOException {
        Map<String, String> tokens = new LinkedHashMap<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    tokens.put(line.substring(0, space), line.substring(space + 1));
                }
            }
        }
        return tokens;
    }

    public int port() {
        return port;
    }

    /** Token per host name (the agents'), plus {@code bench-reader}'s read token when the server made one. */
    public Map<String, String> tokens() {
        return tokens;
    }

    /** Its stderr: the server's log. */
    public Path log() {
        return log;
    }

    /** False once the server exited (e.g. on {@code -XX:+ExitOnOutOfMemoryError}). */
    public boolean alive() {
        return process.isAlive();
    }

    /** Why it exited, from its stdout or log: the first {@code OutOfMemoryError} line, else its exit code; null while it runs. */
    public String exitReason() {
        if (process.isAlive()) {
            return null;
        }
        for (Path file : List.of(out, log)) {
            try {
                for (String line : Files.readAllLines(file)) {
                    if (line.contains("OutOfMemoryError")) {
                        return "exited: " + line.trim();
                    }
                }
            } catch (IOException e) {
                // missing or unreadable: the exit code below still says it died
            }
        }
        return "exited with code " + process.exitValue();
    }

    public long pid() {
        return process.pid();
    }

    public ProcessStats.Sample sample() {
        return ProcessStats.sample(process.pid());
    }

    /**
     * Stops the server as a service manager would (SIGTERM), forcibly after 30 s.
     *
     * @return from the signal to its exit, or null when it had to be killed (or had already exited)
     */
    public Duration stop() throws InterruptedException {
        if (!process.isAlive()) {
            return null;
        }
        long from = System.nanoTime();
        process.destroy();
        if (process.waitFor(30, TimeUnit.SECONDS)) {
            return Duration.ofNanos(System.nanoTime() - from);
        }
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        return null;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
