package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.window.NightlyWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Holds the alert stage's incremental analysis of a minute ({@link LiveFleet}) to a fresh analysis of the whole store at
 * the same instant: the same alerts, and per instance the same calendar, windows, creep, spills, sections, compression,
 * keyed digest and baseline fulls.
 */
final class FreshComparison {

    private FreshComparison() {
    }

    /** Asserts that {@code incremental} equals {@code fresh}; returns the fresh analysis's alerts. */
    static List<Alert> assertSameAsFresh(FleetAnalysis incremental, FleetAnalysis fresh, AlertEvaluator evaluator,
                                         int lookbackDays) {
        Instant now = fresh.now();
        // the fresh analysis by an evaluator that remembers nothing: the stage's own remembers only the stage's minutes
        List<Alert> alerts = evaluator.anew().evaluate(fresh).alerts();
        assertThat(evaluator.evaluate(incremental).alerts()).as("alerts at %s", now).isEqualTo(alerts);
        assertThat(incremental.instances()).hasSameSizeAs(fresh.instances());
        for (int i = 0; i < fresh.instances().size(); i++) {
            InstanceAnalysis a = incremental.instances().get(i);
            InstanceAnalysis b = fresh.instances().get(i);
            assertThat(a.scope()).isEqualTo(b.scope());
            assertThat(a.calendar()).as("calendar of %s at %s", b.scope(), now).isEqualTo(b.calendar());
            assertThat(a.windows().stream().map(NightlyWindow::withoutBackups).toList()).as("windows of %s at %s", b.scope(), now)
                    .isEqualTo(b.windows().stream().map(NightlyWindow::withoutBackups).toList());
            List<NightlyWindow> finished = b.windows().stream().filter(w -> !w.businessStart().isAfter(now)).toList();
            if (!finished.isEmpty()) {
                int last = b.windows().indexOf(finished.get(finished.size() - 1));
                assertThat(a.windows().get(last)).as("the latest finished night keeps its last backup")
                        .isEqualTo(b.windows().get(last).summary());
            }
            assertThat(a.creep()).as("creep of %s at %s", b.scope(), now).isEqualTo(b.creep());
            assertThat(a.spills()).isEqualTo(b.spills());
            assertThat(a.silent()).isEqualTo(b.silent());
            assertThat(a.host().tags()).as("tags of %s at %s", b.scope(), now).isEqualTo(b.host().tags());
            assertThat(a.instance().collectedAt()).isEqualTo(b.instance().collectedAt());
            assertThat(a.instance().databases()).isEqualTo(b.instance().databases());
            assertThat(a.instance().accelerators()).isEqualTo(b.instance().accelerators());
            assertThat(a.instance().runningBackups()).isEqualTo(b.instance().runningBackups());
        }
        assertThat(incremental.compression().rows()).as("compression comparisons at %s", now)
                .isEqualTo(fresh.compression().rows());
        assertThat(incremental.compression().hosts()).isEqualTo(fresh.compression().hosts());
        assertThat(incremental.compression().restoreReadyHosts()).isEqualTo(fresh.compression().restoreReadyHosts());
        // hosts whose comparisons did not change are reused from the last minute: as a fresh comparison would have them
        assertThat(incremental.compression().fleet()).isEqualTo(fresh.compression().fleet());
        assertThat(incremental.compression().qatWithoutGainRows()).isEqualTo(fresh.compression().qatWithoutGainRows());
        assertThat(incremental.compression().byInstance()).isEqualTo(fresh.compression().byInstance());
        assertThat(incremental.databases().keySet()).containsExactlyElementsOf(fresh.databases().keySet());
        // the digest kept keyed between minutes: as a fresh keying of the instance's backups would have it
        Map<String, List<NightlyWindow.DatabaseBackup>> keyed = new HashMap<>();
        incremental.databases().values().forEach(m -> m.backups().forEach(
                d -> keyed.computeIfAbsent(d.instance(), k -> new ArrayList<>()).add(d)));
        Instant from = now.minus(Duration.ofDays(lookbackDays));
        for (InstanceAnalysis a : incremental.instances()) {
            DatabaseIdentities ids = DatabaseIdentities.of(a.scope(), a.instance());
            List<NightlyWindow.DatabaseBackup> expected = a.instance().backups().stream()
                    .filter(b -> b.finishedAt().isAfter(from) && !b.startedAt().isAfter(now))
                    .map(b -> FleetAnalysis.toBackup(a.scope(), b, ids))
                    .filter(d -> incremental.databases().containsKey(d.databaseKey())).toList();
            assertThat(keyed.getOrDefault(a.scope(), List.of())).as("keyed backups of %s at %s", a.scope(), now)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
        for (MergedDatabase m : fresh.databases().values()) {
            MergedDatabase n = incremental.databases().get(m.key());
            assertThat(List.of(n.name(), n.host(), n.instance(), n.replicas(), n.silent()))
                    .isEqualTo(List.of(m.name(), m.host(), m.instance(), m.replicas(), m.silent()));
            // the baseline fulls kept between minutes: as a fresh read of the lookback period would have them
            assertThat(fulls(n)).as("baseline fulls of %s at %s", m.name(), now).isEqualTo(fulls(m));
        }
        return alerts;
    }

    /** A merged database's baseline fulls, replica by replica, in the order the rule reads them. */
    static List<String> fulls(MergedDatabase m) {
        List<String> out = new ArrayList<>();
        for (BaselineFulls f : m.fulls()) {
            for (int i = 0; i < f.size(); i++) {
                out.add(f.scope() + " " + f.finishedAt(i) + " " + f.sizeBytes(i) + " " + f.durationSeconds(i) + " " + f.path(i));
            }
        }
        return out;
    }
}
