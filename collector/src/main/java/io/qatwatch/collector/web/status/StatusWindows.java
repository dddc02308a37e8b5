package io.qatwatch.collector.web.status;

import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.RestoreTests;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.JobOverlaps;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.SpillForecast;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RestoreRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The window analysis of one evaluation as the status page's charts: per instance, its last nights and trend. Pure. */
public final class StatusWindows {

    /** How many nights a chart shows. */
    public static final int NIGHTS = 30;

    private static final Set<String> SYSTEM_DATABASES = Set.of("master", "model", "msdb", "tempdb");

    private StatusWindows() {
    }

    /** Every instance of {@code hosts} that has nightly windows, by host and instance name. */
    public static List<StatusView.InstanceWindows> of(FleetAnalysis analysis, Set<String> hosts) {
        List<InstanceAnalysis> shown = analysis.instances().stream()
                .filter(ia -> hosts.contains(ia.host().host()) && (!ia.windows().isEmpty() || noWindow(ia) != null))
                .sorted(Comparator.comparing((InstanceAnalysis ia) -> ia.host().host()).thenComparing(ia -> ia.instance().name()))
                .toList();
        Map<DatabaseInfo, RestoreTests.RestoreTest> restores = lastRestores(analysis,
                shown.stream().flatMap(ia -> userDatabases(ia).stream()).toList());
        return shown.stream().map(ia -> of(analysis, ia, restores)).toList();
    }

    /**
     * Why an instance in an availability group has no nightly window: its databases are backed up on another
     * replica (the preferred backup replica), so the group's windows are on that replica's chart. Null otherwise.
     */
    static String noWindow(InstanceAnalysis ia) {
        if (!ia.windows().isEmpty()) {
            return null;
        }
        java.util.Set<String> groups = new java.util.TreeSet<>();
        for (var d : ia.instance().databases()) {
            if (d.availabilityGroup() != null && !d.availabilityGroup().isBlank()) {
                groups.add(d.availabilityGroup() + (d.replicaRole() == null ? "" : " (this replica " + d.replicaRole() + ")"));
            }
        }
        if (groups.isEmpty()) {
            return null;
        }
        return "No nightly window here: no full or differential backup of its databases ran on this replica in the lookback "
                + "period. Its databases are in availability group " + String.join(", ", groups) + ", whose backups run on "
                + "another replica (the preferred backup replica): that replica's chart shows them.";
    }

    /** The last restore test of each of the instance's user databases, anywhere in the fleet. */
    static List<StatusView.RestoreTest> restoreTests(InstanceAnalysis ia, Map<DatabaseInfo, RestoreTests.RestoreTest> last) {
        List<StatusView.RestoreTest> out = new ArrayList<>();
        for (DatabaseInfo d : userDatabases(ia)) {
            RestoreTests.RestoreTest t = last.get(d);
            out.add(new StatusView.RestoreTest(d.name(), t == null ? null : t.restore().restoredAt(),
                    t == null ? null : t.host() + "/" + t.instance() + " as " + t.restore().destinationDatabase()));
        }
        return out;
    }

    private static List<DatabaseInfo> userDatabases(InstanceAnalysis ia) {
        return ia.instance().databases().stream()
                .filter(d -> d.name() != null && !SYSTEM_DATABASES.contains(d.name().toLowerCase(Locale.ROOT))).toList();
    }

    /**
     * The newest restore of each of {@code databases} anywhere in the fleet ({@link RestoreTests#last}'s answer), in one
     * pass over the fleet's restores: asking {@link RestoreTests#last} per database walked the whole fleet once per
     * database, 1,000 databases × 10,000 instances for a fleet page (issue 32 item 8).
     */
    static Map<DatabaseInfo, RestoreTests.RestoreTest> lastRestores(FleetAnalysis analysis, List<DatabaseInfo> databases) {
        Map<String, List<DatabaseInfo>> byFamily = new HashMap<>();
        Map<String, List<DatabaseInfo>> byGuid = new HashMap<>();
        for (DatabaseInfo d : databases) {
            if (d.familyGuid() != null) {
                byFamily.computeIfAbsent(d.familyGuid().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(d);
            }
            if (d.databaseGuid() != null) {
                byGuid.computeIfAbsent(d.databaseGuid().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(d);
            }
        }
        Map<DatabaseInfo, RestoreTests.RestoreTest> best = new IdentityHashMap<>();
        if (byFamily.isEmpty() && byGuid.isEmpty()) {
            return best;
        }
        for (InstanceAnalysis ia : analysis.instances()) {
            for (RestoreRecord r : ia.instance().jobs().restores()) {
                if ("V".equalsIgnoreCase(r.restoreType())) {
                    continue;
                }
                List<DatabaseInfo> family = r.familyGuid() == null ? null : byFamily.get(r.familyGuid().toLowerCase(Locale.ROOT));
                List<DatabaseInfo> source = r.sourceDatabaseGuid() == null ? null
                        : byGuid.get(r.sourceDatabaseGuid().toLowerCase(Locale.ROOT));
                for (List<DatabaseInfo> matched : java.util.Arrays.asList(family, source)) {
                    if (matched == null) {
                        continue;
                    }
                    for (DatabaseInfo d : matched) {
                        RestoreTests.RestoreTest b = best.get(d);
                        if (b == null || r.restoredAt().isAfter(b.restore().restoredAt())) {
                            best.put(d, new RestoreTests.RestoreTest(r, ia.host().host(), ia.instance().name()));
                        }
                    }
                }
            }
        }
        return best;
    }

    private static StatusView.InstanceWindows of(FleetAnalysis analysis, InstanceAnalysis ia,
            Map<DatabaseInfo, RestoreTests.RestoreTest> restores) {
        List<NightlyWindow> sorted = ia.windows().stream().sorted(Comparator.comparing(NightlyWindow::morning)).toList();
        List<NightlyWindow> last = sorted.subList(Math.max(0, sorted.size() - NIGHTS), sorted.size());
        List<StatusView.Night> nights = new java.util.ArrayList<>(last.stream()
                .map(w -> new StatusView.Night(w.morning(), w.kind().name(), w.businessStart(), w.firstStart(), w.lastFinish(),
                        w.marginSeconds(), runningIn(ia.spills(), w), JobOverlaps.of(w, ia.instance().jobs().jobs(),
                                ia.instance().jobs().runs()).stream()
                                .map(o -> new StatusView.JobMark(o.jobName(), o.from(), o.to())).toList()))
                .toList());
        ia.spills().stream().max(Comparator.comparing(SpillForecast::predictedWindowEnd)).ifPresent(s -> withRunning(nights, s));
        return new StatusView.InstanceWindows(ia.host().host(), ia.instance().name(), ia.calendar().zone(),
                ia.calendar().safetyMargin().toSeconds() / 60.0, nights, trend(ia, analysis.now()), restoreTests(ia, restores),
                noWindow(ia));
    }

    /**
     * The trend to draw: the one projecting the earliest crossing of the safety margin; without any, the
     * trend of the kind of the latest finished night (what the next night will be compared with), else the one
     * fitted on the most nights.
     */
    private static StatusView.Trend trend(InstanceAnalysis ia, Instant now) {
        CreepTrend pick = ia.creep().values().stream().filter(t -> t.forecastDate() != null)
                .min(Comparator.comparing(CreepTrend::forecastDate)).orElse(null);
        if (pick == null) {
            // tonight's window is not one to compare yet: while its biggest backup runs, its finished part may look
            // like a differential night beside 29 full ones (issue 29: "too few comparable nights" above 29 fulls)
            pick = ia.windows().stream().filter(w -> !w.businessStart().isAfter(now))
                    .max(Comparator.comparing(NightlyWindow::morning)).map(w -> ia.creep().get(w.kind())).orElse(null);
        }
        if (pick == null) {
            pick = ia.creep().values().stream().max(Comparator.comparingInt((CreepTrend t) -> t.nights().size())).orElse(null);
        }
        if (pick == null || pick.nights().isEmpty()) {
            return null;
        }
        return new StatusView.Trend(pick.kind().name(), pick.slopeMinutesPerDay(), pick.nights().size(),
                pick.nights().get(pick.nights().size() - 1).morning(), pick.projectedMarginMinutes(), pick.forecastDate(),
                pick.daysUntilForecast());
    }

    /**
     * The night a running backup belongs to, drawn from its first start to the report that saw it running, with the
     * predicted end (issue 29: it was drawn as the finished backups' stub, "margin 8 h 10 min", beside an alert that
     * said it would end after opening). A night whose only backup still runs is added.
     */
    static void withRunning(List<StatusView.Night> nights, SpillForecast s) {
        Instant seen = s.startedAt().plusSeconds(s.elapsedSeconds());
        StatusView.Running running = new StatusView.Running(s.database(), s.startedAt(), seen, s.percentComplete(),
                s.predictedWindowEnd(), s.marginSeconds());
        for (int i = 0; i < nights.size(); i++) {
            StatusView.Night n = nights.get(i);
            if (n.morning().equals(s.morning())) {
                Instant first = n.firstStart().isBefore(s.startedAt()) ? n.firstStart() : s.startedAt();
                Instant last = n.lastFinish().isAfter(seen) ? n.lastFinish() : seen;
                nights.set(i, new StatusView.Night(n.morning(), n.kind(), n.businessStart(), first, last,
                        java.time.Duration.between(last, n.businessStart()).getSeconds(), true, n.jobs(), running));
                return;
            }
        }
        if (nights.isEmpty() || nights.get(nights.size() - 1).morning().isBefore(s.morning())) {
            nights.add(new StatusView.Night(s.morning(), null, s.businessStart(), s.startedAt(), seen,
                    java.time.Duration.between(seen, s.businessStart()).getSeconds(), true, List.of(), running));
            if (nights.size() > NIGHTS) {
                nights.remove(0);
            }
        }
    }

    /** A spill forecast is a backup still running; it belongs to the night it started in. */
    private static boolean runningIn(List<SpillForecast> spills, NightlyWindow w) {
        Instant from = w.businessEnd() == null ? w.firstStart() : w.businessEnd();
        return spills.stream().anyMatch(s -> !s.startedAt().isBefore(from) && s.startedAt().isBefore(w.businessStart()));
    }
}
