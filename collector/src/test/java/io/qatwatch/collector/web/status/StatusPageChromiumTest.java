package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture page served over loopback HTTP and loaded by a real headless Chromium: the alert and the
 * window charts are in the rendered DOM, and the page and screenshots at laptop and phone width are kept
 * in {@code target/} as build artifacts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatusPageChromiumTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path ARTIFACTS = Path.of("target");

    private Vertx vertx;
    private HttpServer server;

    @BeforeAll
    void serveTheFixturePage() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM),
                "chromium is not installed: run ./run-tests, which installs Debian's chromium package");
        vertx = Vertx.vertx();
        String page = StatusPage.render(StatusFixture.view());
        Files.createDirectories(ARTIFACTS);
        Files.writeString(ARTIFACTS.resolve("status-page.html"), page);
        server = vertx.createHttpServer()
                .requestHandler(req -> req.response().putHeader("Content-Type", "text/html; charset=utf-8").end(page))
                .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    }

    @AfterAll
    void stop() throws Exception {
        if (vertx != null) {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void atLaptopWidthTheAlertAndTheChartsAreRendered(@TempDir Path profile) throws Exception {
        Path screenshot = fresh("status-page.png");
        String dom = chromium(profile, "--dump-dom", "--screenshot=" + screenshot, "--window-size=1280,2000");
        assertThat(dom).contains("data-rule=\"backup-window-creep\"")
                .contains("Nightly backups of sql01 / MSSQLSERVER end 9 min later every day")
                .contains("<svg class=\"windows compact\"")
                .contains("<circle class=\"forecast\"");
        assertThat(dom.split("<rect class=\"bar ", -1)).as("30 bars in each of the 2 charts").hasSize(61);
        assertThat(dom).doesNotContain("<script");
        assertThat(Files.readAllBytes(screenshot)).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void atPhoneWidthThePageRendersToo(@TempDir Path profile) throws Exception {
        Path screenshot = fresh("status-page-phone.png");
        chromium(profile, "--screenshot=" + screenshot, "--window-size=390,2600");
        assertThat(Files.readAllBytes(screenshot)).startsWith(0x89, 'P', 'N', 'G');
    }

    private static Path fresh(String name) throws IOException {
        Path file = ARTIFACTS.resolve(name).toAbsolutePath();
        Files.deleteIfExists(file);
        return file;
    }

    /** Runs headless Chromium on the page with {@code args}; returns its stdout. */
    private String chromium(Path profile, String... args) throws IOException, InterruptedException {
        return chromiumAt(profile, "http://127.0.0.1:" + server.actualPort() + "/", args);
    }

    /** Runs headless Chromium on {@code url} with {@code args}; returns its stdout. */
    static String chromiumAt(Path profile, String url, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        command.add(url);
        Path log = Files.createTempFile("chromium", ".log");
        try {
            Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium finished within 60 s").isTrue();
            assertThat(p.exitValue()).as("chromium exit; stderr: %s", Files.readString(log)).isZero();
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
