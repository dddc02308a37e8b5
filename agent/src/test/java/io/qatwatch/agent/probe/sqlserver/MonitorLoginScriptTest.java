package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * install/sql/create-monitor-login.sql grants exactly what the queries' {@code -- Permission:} headers declare, for
 * every SQL Server release from 2016 to 2025: nothing a query needs is missing, nothing is granted that no query needs.
 */
class MonitorLoginScriptTest {

    private static final Path SCRIPT = Path.of(System.getProperty("basedir", ".")).resolve("../install/sql/create-monitor-login.sql").normalize();
    private static final Map<String, Integer> RELEASES = Map.of("2016", 13, "2017", 14, "2019", 15, "2022", 16, "2025", 17);
    private static final int FIRST = 13;
    private static final int LAST = 17;
    /** A securable as GRANT names it: {@code dbo.backupset}, {@code CERTIFICATE::*}, {@code ASYMMETRIC KEY::*}. */
    private static final String SECURABLE = "(?:[A-Z]+ )?[A-Z]+::\\S+|[\\w.]+";
    private static final Pattern ENTRY = Pattern.compile(
            "([A-Z][A-Z ]*?[A-Z])(?: ON (" + SECURABLE + ") IN (\\w+))?(?: \\((\\d{4})(?:-(\\d{4})|(\\+))\\))?");
    private static final Pattern GATE = Pattern.compile("IF CAST\\(SERVERPROPERTY\\('ProductMajorVersion'\\) AS int\\) >= (\\d+)");
    private static final Pattern USE = Pattern.compile("^USE (\\w+);");
    private static final Pattern GRANT = Pattern.compile("GRANT ([A-Z][A-Z ]*?[A-Z])(?: ON (" + SECURABLE + "))? TO \\[qatwatch_monitor]");

    /** One grant: a permission, its securable (null for a server permission) and the database it is granted in. */
    private record Grant(String permission, String securable, String database) {
        @Override
        public String toString() {
            return securable == null ? permission : permission + " ON " + securable + " IN " + database;
        }
    }

    /** What the headers of the queries that run on {@code major} ask for. */
    private static Set<String> declared(int major) {
        Set<String> needed = new TreeSet<>();
        for (SqlQuery q : SqlQuery.all()) {
            if (!q.runsOn(major)) {
                continue;
            }
            for (String entry : q.permission().split(";")) {
                String e = entry.trim();
                if (e.equals("public")) {
                    continue;
                }
                Matcher m = ENTRY.matcher(e);
                assertThat(m.matches()).as("%s: permission entry '%s' must read PERMISSION [ON securable IN database] [(2016-2019) | (2022+)]",
                        q.name(), e).isTrue();
                int from = m.group(4) == null ? FIRST : RELEASES.get(m.group(4));
                int to = m.group(5) != null ? RELEASES.get(m.group(5)) : m.group(6) != null || m.group(4) == null ? LAST : from;
                if (major >= from && major <= to) {
                    needed.add(new Grant(m.group(1), m.group(2), m.group(3)).toString());
                }
            }
        }
        return needed;
    }

    /** Where the reader is in a version gate: {@code IF ... >= N} [BEGIN ... END] [ELSE [BEGIN ... END]]. */
    private enum Gate { NONE, AFTER_IF, THEN_BLOCK, AFTER_THEN, AFTER_ELSE, ELSE_BLOCK }

    /** The grants the script makes on {@code major}, following its USE statements and version IF/ELSE blocks. */
    private static Set<String> granted(int major, List<String> lines) {
        Set<String> grants = new TreeSet<>();
        String database = "master";
        Gate gate = Gate.NONE;
        int from = 0;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("--")) {
                continue;
            }
            Matcher versionIf = GATE.matcher(line);
            if (line.equals("GO")) {
                gate = Gate.NONE;
                continue;
            }
            if (versionIf.find()) {
                gate = Gate.AFTER_IF;
                from = Integer.parseInt(versionIf.group(1));
                continue;
            }
            if (line.equals("BEGIN") && (gate == Gate.AFTER_IF || gate == Gate.AFTER_ELSE)) {
                gate = gate == Gate.AFTER_IF ? Gate.THEN_BLOCK : Gate.ELSE_BLOCK;
                continue;
            }
            if (line.equals("END") && (gate == Gate.THEN_BLOCK || gate == Gate.ELSE_BLOCK)) {
                gate = gate == Gate.THEN_BLOCK ? Gate.AFTER_THEN : Gate.NONE;
                continue;
            }
            if (line.equals("ELSE") && gate == Gate.AFTER_THEN) {
                gate = Gate.AFTER_ELSE;
                continue;
            }
            if (gate == Gate.AFTER_THEN) {
                gate = Gate.NONE;
            }
            boolean applies = switch (gate) {
                case NONE -> true;
                case AFTER_IF, THEN_BLOCK -> major >= from;
                case AFTER_ELSE, ELSE_BLOCK -> major < from;
                case AFTER_THEN -> throw new IllegalStateException("left above");
            };
            Matcher use = USE.matcher(line);
            if (use.find() && applies) {
                database = use.group(1);
            }
            Matcher grant = GRANT.matcher(line.replace("' + QUOTENAME(name) + N'", "*"));
            while (grant.find()) {
                if (applies) {
                    grants.add(new Grant(grant.group(1), grant.group(2), grant.group(2) == null ? null : database).toString());
                }
            }
            if (gate == Gate.AFTER_IF) {
                gate = Gate.AFTER_THEN;
            } else if (gate == Gate.AFTER_ELSE) {
                gate = Gate.NONE;
            }
        }
        return grants;
    }

    @Test
    void theScriptGrantsExactlyWhatTheQueryHeadersDeclareOnEveryRelease() throws Exception {
        List<String> lines = Files.readAllLines(SCRIPT);
        for (int major : IntStream.rangeClosed(FIRST, LAST).toArray()) {
            assertThat(granted(major, lines)).as("grants of %s on major version %d", SCRIPT.getFileName(), major)
                    .isEqualTo(declared(major));
        }
    }

    @Test
    void theComparisonSeesWhatItCompares() throws Exception {
        List<String> lines = Files.readAllLines(SCRIPT);
        assertThat(granted(15, lines)).contains("VIEW SERVER STATE", "SELECT ON dbo.backupset IN msdb",
                "VIEW DEFINITION ON CERTIFICATE::* IN master", "VIEW DEFINITION ON ASYMMETRIC KEY::* IN master");
        assertThat(granted(16, lines)).contains("VIEW SERVER PERFORMANCE STATE", "VIEW SERVER SECURITY STATE")
                .doesNotContain("VIEW SERVER STATE");
        List<String> broader = new ArrayList<>(lines);
        broader.add("GRANT VIEW ANY DEFINITION TO [qatwatch_monitor];");
        assertThat(granted(16, broader)).as("a grant no query needs is seen").contains("VIEW ANY DEFINITION");
        assertThat(declared(16)).doesNotContain("VIEW ANY DEFINITION", "VIEW SERVER STATE");
    }
}
