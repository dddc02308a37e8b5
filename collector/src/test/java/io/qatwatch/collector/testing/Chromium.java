package io.qatwatch.collector.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's {@code chromium}) driven through Debian's {@code chromium-driver} by Selenium
 * WebDriver: the browser types, clicks and posts forms itself. Tests skip when either is missing; {@code ./run-tests}
 * installs both.
 */
public final class Chromium implements AutoCloseable {

    public static final Path BROWSER = Path.of("/usr/bin/chromium");
    public static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;

    private Chromium(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Skips the test unless Chromium and its driver are installed. */
    public static void assumeInstalled() {
        assumeTrue(Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER),
                "chromium and chromium-driver are not installed: run ./run-tests, which installs Debian's packages");
    }

    /** A fresh browser (its own profile, no cookies) with a window {@code width} CSS pixels wide. */
    public static Chromium start(int width, int height) {
        assumeInstalled();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=" + width + "," + height);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        Chromium c = new Chromium(new ChromeDriver(service, options));
        c.driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        c.driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        c.resize(width, height);
        return c;
    }

    public WebDriver driver() {
        return driver;
    }

    /** Sets the viewport (the page's {@code innerWidth}) to {@code width} × {@code height}. */
    public void resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
        Object inner = script("return window.innerWidth;");
        long dw = width - ((Number) inner).longValue();
        if (dw != 0) {
            driver.manage().window().setSize(new Dimension(width + (int) dw, height));
        }
    }

    public Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    /** How many CSS pixels the page is wider than the window (0 when nothing overflows sideways). */
    public long horizontalOverflow() {
        return ((Number) script("return Math.max(0, document.documentElement.scrollWidth - window.innerWidth);")).longValue();
    }

    /** The elements wider than the window, as {@code tag#id.class (right edge)}, for a failure message. */
    public String overflowingElements() {
        return String.valueOf(script("""
                const w = window.innerWidth; const out = [];
                for (const e of document.querySelectorAll('body *')) {
                  const r = e.getBoundingClientRect();
                  if (r.right > w + 0.5 && r.width > 0) out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                    + (e.className && e.className.baseVal === undefined ? '.' + e.className : '') + ' (' + Math.round(r.right) + ')');
                  if (out.length > 12) break;
                }
                return out.join(', ');"""));
    }

    /** Waits up to 30 s for {@code condition}: what the test asserts next, never a fixed time. */
    public <T> T await(ExpectedCondition<T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(30)).until(condition);
    }

    /** A screenshot of the whole page (the window grown to the page's height), written to {@code file}. */
    public Path screenshot(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Dimension before = driver.manage().window().getSize();
        long height = ((Number) script("return document.documentElement.scrollHeight;")).longValue();
        driver.manage().window().setSize(new Dimension(before.getWidth(), (int) Math.min(20_000, Math.max(height, 400))));
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), file, StandardCopyOption.REPLACE_EXISTING);
        driver.manage().window().setSize(before);
        return file;
    }

    /** axe-core's version, from npm: the accessibility check the status page tests run in the page. */
    public static final String AXE_VERSION = "4.14.1";

    /**
     * axe-core run in the page: the violations of impact serious or critical, as {@code id (impact): help, on
     * selectors}; empty when there are none. axe-core comes from npm into {@code target/axe} (installed on first use,
     * never committed).
     */
    public java.util.List<String> seriousAccessibilityViolations() throws IOException, InterruptedException {
        script(Files.readString(axe()));
        Object json = ((JavascriptExecutor) driver).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {resultTypes: ['violations']})
                  .then(r => done(JSON.stringify(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => v.id + ' (' + v.impact + '): ' + v.help + ', on ' + v.nodes.slice(0, 5)
                      .map(n => n.target.join(' ')).join('; ')))))
                  .catch(e => done(JSON.stringify(['axe failed: ' + e])));""");
        io.vertx.core.json.JsonArray list = new io.vertx.core.json.JsonArray(String.valueOf(json));
        java.util.List<String> out = new java.util.ArrayList<>();
        list.forEach(v -> out.add(String.valueOf(v)));
        return out;
    }

    private static synchronized Path axe() throws IOException, InterruptedException {
        Path dir = Path.of("target", "axe").toAbsolutePath();
        Path script = dir.resolve("node_modules/axe-core/axe.min.js");
        if (!Files.isRegularFile(script)) {
            Files.createDirectories(dir);
            Process npm = new ProcessBuilder("npm", "install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
                    "--prefix", dir.toString(), "axe-core@" + AXE_VERSION).redirectErrorStream(true).start();
            String out = new String(npm.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!npm.waitFor(300, java.util.concurrent.TimeUnit.SECONDS) || npm.exitValue() != 0 || !Files.isRegularFile(script)) {
                throw new IOException("npm could not install axe-core " + AXE_VERSION + " into " + dir + ": " + out);
            }
        }
        return script;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
