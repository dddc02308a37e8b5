package io.qatwatch.collector.web.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qatwatch.collector.testing.GroupedFleet;
import io.qatwatch.collector.testing.OnGroupedFleet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page of a real collector over a fleet in two host groups: the summary counts the whole fleet,
 * the host table is one page with a link to the next, and headless Chromium follows that link.
 */
class StatusPagePagingTest extends OnGroupedFleet {

    private static final Pattern HOST_ROW = Pattern.compile("<tr data-host=\"([^\"]+)\"");
    private static final Pattern NEXT = Pattern.compile("<a rel=\"next\" href=\"([^\"]+)\"");

    @Test
    void theSummaryCountsTheWholeFleetByStateAndGroupWhileTheTableShowsOnePage() throws Exception {
        String page = get("/?limit=3");
        assertThat(page).contains("<span class=\"count\">8</span> hosts");
        String summary = section(page, "summary");
        assertThat(summary).contains("data-state=\"silent\"><span class=\"count\">3</span> silent")
                .contains("<a href=\"?group=london&amp;limit=3\">london</a></td><td class=\"num\" data-label=\"Hosts\">3</td>")
                .contains("<a href=\"?group=frankfurt&amp;limit=3\">frankfurt</a></td><td class=\"num\" data-label=\"Hosts\">5</td>")
                .as("each count links to its hosts, at the page size asked for")
                .contains("href=\"?group=london&amp;state=silent&amp;limit=3\">3</a>");
        assertThat(hosts(page)).containsExactly("sql-fra-01", "sql-fra-02", "sql-fra-03");
        assertThat(next(page)).isEqualTo("?limit=3&after=sql-fra-03");
        assertThat(section(page, "compression")).contains("For the 3 hosts listed above.").doesNotContain("sql-fra-04");
    }

    @Test
    void theNextLinksWalkEveryHostOnceAndTheLastPageHasNone() throws Exception {
        List<String> walked = new java.util.ArrayList<>();
        String query = "?limit=3";
        while (query != null) {
            String page = get("/" + query);
            walked.addAll(hosts(page));
            query = next(page);
        }
        assertThat(walked).containsExactlyElementsOf(GroupedFleet.all());
    }

    @Test
    void filtersSelectHostsAndTheirAlerts() throws Exception {
        String silent = get("/?state=silent");
        assertThat(hosts(silent)).containsExactlyElementsOf(GroupedFleet.LONDON);
        assertThat(silent).contains("<option selected>silent</option>");
        String frankfurt = get("/?group=frankfurt");
        assertThat(hosts(frankfurt)).containsExactlyElementsOf(GroupedFleet.FRANKFURT);
        assertThat(section(frankfurt, "alerts")).doesNotContain("sql-lon-");
        assertThat(get("/?host=nothing-*")).contains("No host matches these filters.");
        var bad = fleet.http.get(fleet.collector.port(), "127.0.0.1", "/?limit=100000").send().await(10, TimeUnit.SECONDS);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.bodyAsString()).contains("limit must be a whole number from 1 to 500");
    }

    @Test
    void chromiumRendersThePageAndFollowsItsNextLink(@TempDir Path profile) throws Exception {
        assumeTrue(Files.isExecutable(StatusPageChromiumTest.CHROMIUM),
                "chromium is not installed: run ./run-tests, which installs Debian's chromium package");
        String base = "http://127.0.0.1:" + fleet.collector.port() + "/";
        String first = StatusPageChromiumTest.chromiumAt(profile, base + "?limit=5", "--dump-dom");
        assertThat(hosts(first)).containsExactlyElementsOf(GroupedFleet.FRANKFURT);
        String href = next(first);
        assertThat(href).isEqualTo("?limit=5&after=sql-fra-05");
        String second = StatusPageChromiumTest.chromiumAt(profile, base + href, "--dump-dom");
        assertThat(hosts(second)).containsExactlyElementsOf(GroupedFleet.LONDON);
        assertThat(second).contains("rel=\"first\"").doesNotContain("rel=\"next\"").doesNotContain("<script");
    }

    private String get(String path) throws Exception {
        var r = fleet.http.get(fleet.collector.port(), "127.0.0.1", path).send().await(10, TimeUnit.SECONDS);
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.bodyAsString();
    }

    private static List<String> hosts(String page) {
        return HOST_ROW.matcher(page).results().map(m -> m.group(1)).toList();
    }

    /** The next page's query, unescaped, or null on the last page. */
    private static String next(String page) {
        Matcher m = NEXT.matcher(page);
        return m.find() ? m.group(1).replace("&amp;", "&") : null;
    }

    private static String section(String page, String id) {
        int from = page.indexOf("<section id=\"" + id + "\">");
        assertThat(from).as("section " + id).isNotNegative();
        return page.substring(from, page.indexOf("</section>", from));
    }
}
