package io.qatwatch.collector.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The collector as a separate JVM ({@code java -cp <test classpath> io.qatwatch.collector.cli.CollectorMain ...}), its
 * slf4j-simple log going to a file, so a test can kill it with SIGKILL and read what it logged.
 */
public final class CollectorProcess {

    private CollectorProcess() {
    }

    /** The command line for {@code CollectorMain args}, logging to {@code logFile}. */
    public static List<String> command(Path logFile, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Dorg.slf4j.simpleLogger.logFile=" + logFile);
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=debug");
        command.add("-Dorg.slf4j.simpleLogger.log.io.netty=info");
        command.add("-Dorg.slf4j.simpleLogger.log.okhttp3=info");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.qatwatch.collector.cli.CollectorMain");
        command.addAll(List.of(args));
        return command;
    }

    /** Starts {@code collector --config ... --data ...} and waits until {@code /healthz} answers on {@code port}. */
    public static Process start(Path logFile, Path outputFile, int port, String... args) throws Exception {
        Process p = new ProcessBuilder(command(logFile, args)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile())).start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("collector exited " + p.exitValue() + ": "
                        + Files.readString(outputFile, StandardCharsets.UTF_8));
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return p;
                }
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("collector did not answer /healthz on port " + port);
    }
}
