package io.qatwatch.collector;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The collector's packages follow the path a report takes (docs/architecture.md): each package imports only
 * packages to its left in {@link #LAYERS}, and no two packages import each other.
 */
class LayeringTest {

    private static final String BASE = "io.qatwatch.collector";

    /**
     * Left to right. A package may import its own layer and any layer before it; a sub-package not named here
     * belongs to its nearest named parent ({@code notify.slack} is a channel).
     */
    static final List<String> LAYERS = List.of(
            "config",        // ConfigException, Secrets: what every configured part uses
            "store",         // SQLite: reports, backups, tokens
            "metrics",       // counters ingest adds to and /metrics serves
            "pacing",        // holds the alert stage's long work back while ingest needs the CPU
            "ingest",        // authenticate, validate, store a report
            "window",        // business calendars, nightly windows, creep, spill (pure)
            "compression",   // compression methods compared like with like, verdicts (pure)
            "chain",         // log chains and restore plans across replicas (pure)
            "analysis",      // the fleet in memory and its per-minute analysis
            "alert",         // the alert model: Alert, Severity, AlertRecord
            "alert.rule",    // the rules and the evaluate stage
            "dispatch",      // group, dedup, silence, retry, alert state; the Notifier seam
            "notify",        // what every channel shares (message text, webhook client)
            "notify.*",      // one package per channel
            "notify.all",    // the channel registry
            "influx",        // the InfluxDB sink
            "web",           // API views and the seams the stages implement
            "web.status",    // the status page
            "web.server",    // routes, authentication, the HTTP server
            "",              // the root: the collector wired together, its config assembled
            "cli");          // the commands

    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(BASE);
    }

    @Test
    void everyPackageHasItsPlaceInTheLayers() {
        Set<String> unplaced = new TreeSet<>();
        for (JavaClass c : classes) {
            if (rank(c.getPackageName()) < 0) {
                unplaced.add(c.getPackageName());
            }
        }
        assertThat(unplaced).as("collector packages missing from LayeringTest.LAYERS and docs/architecture.md").isEmpty();
        assertThat(classes.size()).as("classes analysed").isGreaterThan(100);
    }

    @Test
    void packagesImportOnlyPackagesToTheirLeft() {
        Set<String> violations = new TreeSet<>();
        for (JavaClass c : classes) {
            int from = rank(c.getPackageName());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getPackageName();
                if (!target.equals(BASE) && !target.startsWith(BASE + ".")) {
                    continue;
                }
                int to = rank(target);
                if (to > from) {
                    violations.add(name(c.getPackageName()) + " -> " + name(target) + ": " + c.getSimpleName() + " uses "
                            + d.getTargetClass().getSimpleName());
                }
            }
        }
        assertThat(violations).as("imports against the flow (left to right: %s)", LAYERS).isEmpty();
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching(BASE + ".(**)").should().beFreeOfCycles().check(classes);
    }

    /** The index of a package's layer, or -1 when it has none. */
    static int rank(String pkg) {
        String rel = pkg.equals(BASE) ? "" : pkg.startsWith(BASE + ".") ? pkg.substring(BASE.length() + 1) : null;
        if (rel == null) {
            return -1;
        }
        int exact = LAYERS.indexOf(rel);
        if (exact >= 0) {
            return exact;
        }
        int dot = rel.lastIndexOf('.');
        if (dot > 0) {
            int wildcard = LAYERS.indexOf(rel.substring(0, dot) + ".*");
            if (wildcard >= 0 && rel.indexOf('.') == dot) {
                return wildcard;
            }
        }
        return -1;
    }

    private static String name(String pkg) {
        return pkg.equals(BASE) ? "(root)" : pkg.substring(BASE.length() + 1);
    }

    @Test
    void theRanksReadAsDocumented() {
        assertThat(rank(BASE + ".notify.slack")).isGreaterThan(rank(BASE + ".notify")).isLessThan(rank(BASE + ".notify.all"));
        assertThat(rank(BASE + ".alert")).isLessThan(rank(BASE + ".alert.rule"));
        assertThat(rank(BASE + ".nothing.here")).isEqualTo(-1);
        assertThat(rank(BASE)).isLessThan(rank(BASE + ".cli"));
    }
}
