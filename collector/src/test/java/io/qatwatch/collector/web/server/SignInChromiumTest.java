package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.CollectorConfig;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.Chromium;
import io.qatwatch.collector.testing.MovableClock;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.web.StatusPageConfig;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Signing in and out as a person does, in a real Chromium that types the token and clicks (issue 29 item 8: the
 * browser posted the form with {@code Origin: null} and the collector refused it), and the same forms posted from
 * a hostile page on another origin, which asks for no referrer, refused.
 */
class SignInChromiumTest {

    @TempDir
    Path data;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-30T09:00:00Z"));
    private RunningCollector running;
    private Chromium chromium;
    private HttpServer hostile;
    private String base;

    @BeforeEach
    void start() throws Exception {
        Chromium.assumeInstalled();
        CollectorConfig closed = CollectorConfig.defaults()
                .withStatusPage(new StatusPageConfig("http://127.0.0.1:8470/", null, 60, false));
        running = RunningCollector.withAlertStage(closed, data, clock);
        base = "http://127.0.0.1:" + running.port();
        chromium = Chromium.start(1280, 900);
    }

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (hostile != null) {
            hostile.close().await(10, TimeUnit.SECONDS);
        }
        if (running != null) {
            running.close();
        }
    }

    private void signIn(String token) {
        chromium.driver().get(base + "/");
        chromium.await(ExpectedConditions.urlToBe(base + "/login"));
        chromium.driver().findElement(By.id("token")).sendKeys(token);
        chromium.driver().findElement(By.cssSelector("form[action='/login'] button[type=submit]")).click();
    }

    @Test
    void aPersonSignsInByTypingTheTokenAndSignsOutByClicking() throws Exception {
        signIn(running.token("grafana", TokenStore.Kind.READ));
        chromium.await(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("header"), "signed in as grafana"));
        assertThat(chromium.driver().getCurrentUrl()).isEqualTo(base + "/");
        assertThat(chromium.driver().manage().getCookieNamed("qatwatch_session")).isNotNull();

        chromium.driver().findElement(By.cssSelector("form.signout button[type=submit]")).click();
        chromium.await(ExpectedConditions.urlToBe(base + "/login?signedout=1"));
        assertThat(chromium.driver().findElement(By.id("message")).getText()).isEqualTo("Signed out.");
        assertThat(chromium.driver().manage().getCookieNamed("qatwatch_session")).as("the cookie is cleared").isNull();
        chromium.driver().get(base + "/");
        chromium.await(ExpectedConditions.urlToBe(base + "/login"));
    }

    @Test
    void theSameFormsPostedFromAnotherOriginAreRefused() throws Exception {
        String read = running.token("grafana", TokenStore.Kind.READ);
        // another origin on the same machine: same site for cookies (the port does not count), another origin
        String page = "<!doctype html><html lang=\"en\"><head><meta name=\"referrer\" content=\"no-referrer\"><title>x</title>"
                + "</head><body><form id=\"in\" method=\"post\" action=\"" + base + "/login\"><input type=\"hidden\" name=\"token\" value=\""
                + read + "\"><button id=\"sign-in\">Win a prize</button></form><form id=\"out\" method=\"post\" action=\""
                + base + "/logout\"><input type=\"hidden\" name=\"csrf\" value=\"guess\"><button id=\"sign-out\">Another prize"
                + "</button></form></body></html>";
        hostile = running.vertx().createHttpServer()
                .requestHandler(r -> r.response().putHeader("Content-Type", "text/html; charset=utf-8").end(page))
                .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        String evil = "http://127.0.0.1:" + hostile.actualPort() + "/";

        chromium.driver().get(evil);
        chromium.driver().findElement(By.id("sign-in")).click();
        chromium.await(ExpectedConditions.urlToBe(base + "/login"));
        assertThat(chromium.driver().findElement(By.id("message")).getText()).contains("posted from another site", "refused");
        assertThat(chromium.driver().manage().getCookieNamed("qatwatch_session")).as("not signed in by another site").isNull();

        signIn(read);
        chromium.await(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("header"), "signed in as grafana"));
        chromium.driver().get(evil);
        chromium.driver().findElement(By.id("sign-out")).click();
        chromium.await(ExpectedConditions.urlToBe(base + "/logout"));
        assertThat(chromium.driver().findElement(By.id("message")).getText()).contains("refused");
        chromium.driver().get(base + "/");
        chromium.await(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("header"), "signed in as grafana"));
    }
}
