package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.Chromium;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * A DBA's morning on the demo's fleet, in a real Chromium (issue 32): sign in by typing the operator token and
 * clicking, open a host, open a database, acknowledge an alert, add a note, silence and un-silence, sign out; each
 * page photographed at 1400 and 390 px under {@code target/screenshots}, none wider than the window, and none with
 * a serious or critical accessibility violation (axe-core). A read session sees no form it would be refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatusPageFlowTest {

    private static final Path SHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path tmp;

    private Demo demo;
    private Chromium chromium;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws Exception {
        Chromium.assumeInstalled();
        demo = Demo.start(tmp.resolve("demo"), 0, Clock.systemUTC(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        demo.evaluateNow();
        chromium = Chromium.start(1400, 1000);
    }

    @AfterAll
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (demo != null) {
            demo.close();
        }
    }

    private String base() {
        return demo.statusPage().substring(0, demo.statusPage().length() - 1);
    }

    private void signIn(String token) {
        chromium.driver().get(base() + "/login");
        chromium.driver().findElement(By.id("token")).sendKeys(token);
        chromium.driver().findElement(By.cssSelector("form[action='/login'] button[type=submit]")).click();
        chromium.await(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("header"), "signed in as"));
    }

    private void signOut() {
        chromium.driver().findElement(By.cssSelector("form.signout button[type=submit]")).click();
        chromium.await(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Signed out."));
    }

    /** Screenshots at laptop and phone width, nothing wider than the window, no serious accessibility violation. */
    private void looksRight(String page) throws Exception {
        Files.createDirectories(SHOTS);
        Files.writeString(SHOTS.resolve(page + ".html"), chromium.driver().getPageSource());
        for (int width : new int[] {1400, 390}) {
            chromium.resize(width, 1000);
            Files.createDirectories(SHOTS);
            Path shot = chromium.screenshot(SHOTS.resolve(page + "-" + width + ".png"));
            assertThat(Files.readAllBytes(shot)).startsWith(0x89, 'P', 'N', 'G');
            assertThat(chromium.horizontalOverflow()).as("%s at %d px is wider than the window: %s", page, width,
                    chromium.overflowingElements()).isZero();
        }
        chromium.resize(1400, 1000);
        assertThat(chromium.seriousAccessibilityViolations()).as("axe-core on the %s page", page).isEmpty();
        // headings in order: one h1, and no level skipped on the way down (axe counts a skip only as moderate)
        @SuppressWarnings("unchecked")
        List<Long> levels = (List<Long>) ((org.openqa.selenium.JavascriptExecutor) chromium.driver()).executeScript(
                "return Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map(h => Number(h.tagName.substring(1)));");
        assertThat(levels).as("headings of the %s page", page).startsWith(1L).filteredOn(l -> l == 1L).hasSize(1);
        for (int i = 1; i < levels.size(); i++) {
            assertThat(levels.get(i)).as("heading %d of the %s page after an h%d", i, page, levels.get(i - 1))
                    .isLessThanOrEqualTo(levels.get(i - 1) + 1);
        }
    }

    private String api(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .header("Authorization", "Bearer " + demo.readToken()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s: %s", path, r.body()).isEqualTo(200);
        return r.body();
    }

    /** The first alert card (or grouped alert) on the page whose forms are open, its id without "alert-". */
    private String openFormsOfFirstAlert(String rule) {
        WebElement alert = chromium.driver().findElements(By.cssSelector("[id^='alert-']")).stream()
                .filter(e -> rule.equals(e.getAttribute("data-rule")) || e.findElements(By.xpath("ancestor::article[@data-rule='"
                        + rule + "']")).size() > 0)
                .filter(e -> !e.findElements(By.cssSelector("details.act")).isEmpty())
                .findFirst().orElseThrow(() -> new AssertionError("no " + rule + " alert with forms on " + chromium.driver().getCurrentUrl()));
        for (WebElement d : alert.findElements(By.xpath("ancestor::details"))) {
            if (d.getAttribute("open") == null) {
                d.findElement(By.tagName("summary")).click();
            }
        }
        WebElement act = alert.findElement(By.cssSelector("details.act"));
        if (act.getAttribute("open") == null) {
            act.findElement(By.tagName("summary")).click();
        }
        return alert.getAttribute("id").substring("alert-".length());
    }

    @Test
    void aDbaSignsInDrillsDownActsOnAnAlertAndSignsOut() throws Exception {
        signIn(demo.operatorToken());
        assertThat(chromium.driver().findElement(By.cssSelector("header")).getText()).contains("signed in as demo-operator");
        looksRight("fleet");
        assertThat(chromium.driver().findElement(By.id("compression-fleet")).getText()).as("the CPU verdicts, in words")
                .contains("as fast, cheaper in CPU", "no gain, costlier in CPU");
        assertThat(chromium.driver().findElements(By.cssSelector(
                "article.host-compression[data-host='demo-sql-qat01'] tr[data-verdict='CHEAPER']"))).as("Archive").hasSize(1);
        assertThat(chromium.driver().findElements(By.cssSelector(
                "article.host-compression[data-host='demo-sql-amd01'] tr[data-verdict='COSTLIER']"))).as("Reports").hasSize(1);
        assertThat(chromium.driver().findElements(By.cssSelector("article.alert.group[data-rule='qat-restore-risk']")))
                .as("the restore-risk alerts of one host share one card").isNotEmpty();

        chromium.driver().findElement(By.linkText("demo-sql-amd01")).click();
        chromium.await(ExpectedConditions.urlToBe(base() + "/hosts/demo-sql-amd01"));
        assertThat(chromium.driver().findElement(By.cssSelector("h1")).getText()).startsWith("demo-sql-amd01");
        assertThat(chromium.driver().findElement(By.id("facts")).getText()).contains("Licence verdict");
        // the job timeline: a backups bar per night and the maintenance jobs that ran inside the window, on their lanes
        List<WebElement> nights = chromium.driver().findElements(By.cssSelector("svg.job-timeline rect.bar"));
        assertThat(nights).as("a backups bar per night").hasSizeGreaterThanOrEqualTo(7);
        List<WebElement> index = chromium.driver().findElements(By.cssSelector(
                "svg.job-timeline rect.job-run[data-job='IndexOptimize - USER_DATABASES']"));
        assertThat(index).as("IndexOptimize's runs inside the windows").hasSizeGreaterThanOrEqualTo(7);
        assertThat(index.get(index.size() - 1).getRect().getWidth()).as("drawn, not a hairline").isGreaterThan(5);
        assertThat(index.get(0).getRect().getY()).as("on the lane below the backups").isGreaterThan(nights.get(0).getRect().getY());
        assertThat(chromium.driver().findElement(By.cssSelector("article.job-timeline .chart-legend")).getText())
                .contains("IndexOptimize - USER_DATABASES", "DatabaseIntegrityCheck - USER_DATABASES");
        assertThat(chromium.driver().findElement(By.id("recent-alerts")).getText()).contains("Resolved in the last 7 days");
        looksRight("host");

        chromium.driver().findElement(By.cssSelector("table.databases a.database-link[href$='/Warehouse']")).click();
        chromium.await(ExpectedConditions.urlContains("/hosts/demo-sql-amd01/"));
        assertThat(chromium.driver().findElement(By.cssSelector("h1")).getText()).startsWith("Warehouse");
        assertThat(chromium.driver().findElements(By.cssSelector("#backups-D svg.backups"))).hasSize(1);
        assertThat(chromium.driver().findElement(By.cssSelector("#backups-D .chart-legend")).getText()).contains("QAT_DEFLATE");
        assertThat(chromium.driver().findElement(By.id("cpu")).getText()).contains("CPU per GB");
        assertThat(chromium.driver().findElement(By.id("restore")).getText()).contains("Restore plan");
        looksRight("database");

        chromium.driver().get(base() + "/hosts/demo-sql-amd01");
        String id = openFormsOfFirstAlert("backup-window-spill-forecast");
        WebElement ack = chromium.driver().findElement(By.cssSelector("#alert-" + id + " form.ack"));
        new Select(ack.findElement(By.name("minutes"))).selectByValue("240");
        ack.findElement(By.name("note")).sendKeys("moving the Warehouse full to the weekend");
        ack.findElement(By.cssSelector("button[type=submit]")).click();
        chromium.await(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#alert-" + id + " .life"),
                "acknowledged by demo-operator"));
        assertThat(chromium.driver().getCurrentUrl()).startsWith(base() + "/hosts/demo-sql-amd01");

        openFormsOfFirstAlert("backup-window-spill-forecast");
        WebElement note = chromium.driver().findElement(By.cssSelector("#alert-" + id + " form.note"));
        note.findElement(By.name("text")).sendKeys("asked the storage team for a faster target");
        note.findElement(By.cssSelector("button[type=submit]")).click();
        chromium.await(ExpectedConditions.urlContains("/hosts/demo-sql-amd01"));
        assertThat(api("/api/v1/alerts/" + id)).contains("asked the storage team for a faster target", "\"by\" : \"demo-operator\"");

        openFormsOfFirstAlert("backup-window-spill-forecast");
        WebElement silence = chromium.driver().findElement(By.cssSelector("#alert-" + id + " form.silence"));
        assertThat(silence.findElement(By.name("rule")).getAttribute("value")).isEqualTo("backup-window-spill-forecast");
        assertThat(silence.findElement(By.name("host")).getAttribute("value")).isEqualTo("demo-sql-amd01");
        silence.findElement(By.name("comment")).sendKeys("the full moves to the weekend tonight");
        silence.findElement(By.cssSelector("button[type=submit]")).click();
        chromium.await(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#silences form.unsilence")));
        assertThat(chromium.driver().findElement(By.id("silences")).getText()).contains("rule=backup-window-spill-forecast",
                "host=demo-sql-amd01", "the full moves to the weekend tonight");
        assertThat(api("/api/v1/silences")).contains("the full moves to the weekend tonight");

        chromium.driver().findElement(By.cssSelector("#silences form.unsilence button")).click();
        chromium.await(ExpectedConditions.invisibilityOfElementLocated(By.id("silences")));
        assertThat(api("/api/v1/silences")).doesNotContain("the full moves to the weekend tonight");

        signOut();
        assertThat(chromium.driver().manage().getCookieNamed("qatwatch_session")).isNull();
    }

    /**
     * The fleet page keeps a compact windows chart per instance and per host only the compression rows that compare
     * algorithms; what it leaves out is one click away: the full chart (a tooltip per night) and every row, one
     * algorithm only included, on the host's page.
     */
    @Test
    void theFleetPagesCompactChartsAndCardsLeadToTheHostPageThatHasTheRest() throws Exception {
        signIn(demo.readToken());
        chromium.driver().get(base() + "/");
        List<WebElement> compact = chromium.driver().findElements(By.cssSelector("#windows svg.windows.compact"));
        assertThat(compact).as("a compact chart per instance with nights").isNotEmpty();
        assertThat(chromium.driver().findElements(By.cssSelector("#windows svg.windows:not(.compact)"))).isEmpty();
        assertThat(chromium.driver().findElements(By.cssSelector("#windows ul.section-legend"))).as("one legend").hasSize(1);
        assertThat(compact.get(0).findElement(By.tagName("title")).getAttribute("textContent"))
                .as("the nights in words, its accessible name").matches("Backup windows of .*, last \\d+ nights: \\d+ with a safe "
                        + "margin, \\d+ under the safety margin, \\d+ into business hours\\. Last: Night before .*");

        chromium.driver().findElement(By.linkText("Full chart of demo-sql-amd01 / PROD")).click();
        chromium.await(ExpectedConditions.urlToBe(base() + "/hosts/demo-sql-amd01#instance-PROD"));
        WebElement full = chromium.driver().findElement(By.cssSelector("#instance-PROD svg.windows"));
        assertThat(full.getAttribute("class")).isEqualTo("windows");
        assertThat(full.findElements(By.cssSelector("rect.bar > title"))).as("a tooltip per night").isNotEmpty();

        chromium.driver().navigate().back();
        chromium.await(ExpectedConditions.urlToBe(base() + "/"));
        WebElement card = chromium.driver().findElement(By.cssSelector("article.host-compression[data-host='demo-sql-amd01']"));
        int shown = card.findElements(By.cssSelector("tr[data-verdict]")).size();
        assertThat(card.findElements(By.cssSelector("tr[data-verdict='SINGLE_ALGORITHM']"))).as("compares nothing").isEmpty();
        int counted = card.findElements(By.cssSelector("ul.verdict-counts li .count")).stream()
                .mapToInt(c -> Integer.parseInt(c.getText())).sum();
        WebElement all = card.findElement(By.cssSelector("p.all-rows a"));
        assertThat(all.getText()).isEqualTo("All " + counted + " rows of demo-sql-amd01");
        assertThat(counted).isGreaterThan(shown);
        all.click();
        chromium.await(ExpectedConditions.urlToBe(base() + "/hosts/demo-sql-amd01#compression"));
        assertThat(chromium.driver().findElements(By.cssSelector("#compression tr[data-verdict]"))).as("every row")
                .hasSize(counted);
        assertThat(chromium.driver().findElements(By.cssSelector("#compression tr[data-verdict='SINGLE_ALGORITHM']")))
                .hasSize(counted - shown);
        signOut();
    }

    @Test
    void aReadSessionSeesNoFormItWouldBeRefused() throws Exception {
        signIn(demo.readToken());
        for (String page : List.of("/", "/hosts/demo-sql-amd01")) {
            chromium.driver().get(base() + page);
            assertThat(chromium.driver().findElements(By.cssSelector("form.act, details.act"))).as(page).isEmpty();
            assertThat(chromium.driver().findElement(By.cssSelector("header")).getText()).contains("(read only)");
        }
        signOut();
    }
}
