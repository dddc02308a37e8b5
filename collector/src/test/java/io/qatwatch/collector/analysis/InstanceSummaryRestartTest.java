package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.CONFIG;
import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.INSTANCES;
import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.MORNING;
import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.evening;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.chain.RestorePlanner;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.ReportStore.InstanceSummary;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 33's persisted summaries: a restart of the alert stage that restores its instances from the summaries the stage
 * wrote gives the same alerts, windows API, creep, restore plans and compression answers as a start that reads every
 * backup row, on the generated fleet of {@link GeneratedFleetGoldenTest}, on SQLite and PostgreSQL. At every minute of
 * that test the summaries are a step behind the rows (the stage stopped between storing rows and summarising them);
 * then a late backup for a finished night, hours and a day with no new rows (nights finishing, nights leaving the
 * lookback period), summaries of an unknown format and with a damaged body, and an instance whose sections changed.
 */
class InstanceSummaryRestartTest {

    private static final AlertEvaluator EVALUATOR = CONFIG.evaluator();

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aRestartFromSummariesAnswersAsARebuildFromRows(Database.Kind kind, @TempDir Path dir) throws Exception {
        GeneratedFleetGoldenTest fleet = new GeneratedFleetGoldenTest();
        try (Database db = StoreKinds.open(kind, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            fleet.fill(store);
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());

            // the first start reads every row and summarises every instance but gen1, whose creeping night runs past the
            // morning: an instance with a backup that starts after now is not summarised (it is rebuilt when that starts)
            live.refresh(store, MORNING);
            assertThat(live.summaryCounts().written()).isEqualTo(INSTANCES - 1);
            assertThat(live.summaryCounts().restored()).isZero();
            LiveFleet restarted = restart(store, null, MORNING, INSTANCES - 1, 1);
            assertThat(restarted.summaryCounts().bytesRead()).as("bytes of the summaries read")
                    .isEqualTo(live.summaryCounts().bytesWritten()).isGreaterThan(INSTANCES * 100L);

            // log backups stored after the summaries: the restart takes them from the rows
            Instant day = MORNING.plus(Duration.ofMinutes(1));
            for (int i = 0; i < INSTANCES; i++) {
                fleet.store(store, i, day, fleet.logs(i, day.minusSeconds(120), 1), List.of());
            }
            restart(store, live, day, INSTANCES - 1, 1);
            assertThat(live.summaryCounts().written()).as("summaries written again a minute later for a log backup each")
                    .isEqualTo(INSTANCES - 1);

            // tonight's first backups, into the open night
            Instant night = evening(0).plus(Duration.ofMinutes(95));
            for (int i = 0; i < INSTANCES; i++) {
                List<BackupRecord> tonight = fleet.nightly(i, 0).stream().filter(b -> !b.finishedAt().isAfter(night)).toList();
                fleet.store(store, i, night, tonight, List.of());
            }
            restart(store, live, night, INSTANCES - 1, 1);
            assertThat(live.summaryCounts().written()).as("summaries written again, hours after, for the backups since")
                    .isEqualTo(2 * INSTANCES - 1);
            restart(store, live, night.plusSeconds(60), INSTANCES, 0);

            // a late differential for a night that finished three nights ago: that instance is rebuilt from its rows
            BackupRecord late = io.qatwatch.collector.testing.Histories.backup("Stock", "I", evening(-3).plus(Duration.ofHours(2)),
                    300, 1L << 30, "MS_XPRESS", "UNC");
            fleet.store(store, 2, night.plusSeconds(120), List.of(late), List.of());
            restart(store, live, night.plusSeconds(120), INSTANCES, 1);

            // the rest of the night, then the morning: nights finish in memory, and those with a new backup are rebuilt
            Instant morning = evening(1).minus(Duration.ofHours(14)).plus(Duration.ofMinutes(2));
            for (int i = 0; i < INSTANCES; i++) {
                List<BackupRecord> rest = new ArrayList<>(fleet.nightly(i, 0).stream().filter(b -> b.finishedAt().isAfter(night))
                        .toList());
                if (i % 2 == 0) {
                    rest.addAll(fleet.logs(i, morning.minusSeconds(300), 1));
                }
                fleet.store(store, i, morning, rest, List.of());
            }
            check(store, live, morning);
            // gen1's night runs past the morning again: restored from its summary of the night, then rebuilt, until the
            // stage summarises it again once its last backup has started, when its backups of the finished night arrive
            restart(store, live, morning.plusSeconds(60), INSTANCES, 1);

            // summaries of an unknown format and with a damaged body: rebuilt from the rows, nothing lost
            List<InstanceSummary> kept = new ArrayList<>();
            store.summaries(HostSelection.ALL, kept::add);
            kept.sort(Comparator.comparing(InstanceSummary::host));
            kept.removeIf(x -> x.host().equals("gen1"));
            InstanceSummary a = kept.get(0);
            InstanceSummary b = kept.get(1);
            byte[] damaged = b.body().clone();
            damaged[damaged.length / 2] ^= 0x10;
            store.writeSummaries(List.of(
                    new InstanceSummary(a.host(), a.instance(), InstanceSummaryCodec.FORMAT + 1, a.position(), a.sectionsSeq(),
                            a.writtenAt(), a.body()),
                    new InstanceSummary(b.host(), b.instance(), b.format(), b.position(), b.sectionsSeq(), b.writtenAt(), damaged)));
            LiveFleet after = restart(store, live, morning.plusSeconds(120), INSTANCES - 2, 3);
            assertThat(after.summaryCounts().refused()).isEqualTo(2);

            // an instance whose sections changed (a database added) since its summary: rebuilt from its rows
            fleet.store(store, 3, morning.plusSeconds(180), List.of(), List.of(),
                    List.of(new DatabaseInfo("Added", "guid-added", "SIMPLE", "NONE", null, null, null)));
            LiveFleet changed = restart(store, live, morning.plusSeconds(180), INSTANCES - 1, 2);
            assertThat(changed.summaryCounts().refused()).isEqualTo(1);

            // no new rows for hours, then for most of a day: nights finish and leave the lookback period from the summaries
            restart(store, live, morning.plus(Duration.ofHours(5)), INSTANCES, 1);
            restart(store, live, morning.plus(Duration.ofHours(23)), INSTANCES, 0);
            // the stage writes a summary again once it is half a day old, so one whose backups did not change is not
            // refused for its age (a day) at a restart
            restart(store, live, morning.plus(Duration.ofHours(30)), INSTANCES, 0);
        }
    }

    /**
     * Restarts the stage at {@code now} from the store's summaries, checks it answers as a start from the rows, and that
     * {@code restored} instances came from summaries and {@code rebuilt} from rows; then brings {@code live} (the stage
     * that never stopped, which writes the summaries) to {@code now} too, and when every instance was restored checks
     * that the restart keeps exactly what it keeps (the baseline fulls and log chains, which keep a backup that started
     * before the lookback period and finished inside it where a read of the rows, by start, does not). Returns the restart.
     */
    private LiveFleet restart(SqlReportStore store, LiveFleet live, Instant now, int restored, int rebuilt) throws Exception {
        LiveFleet restart = new LiveFleet(CONFIG.analysis(), h -> Set.of());
        LiveFleet.Refresh fromSummaries = restart.refresh(store, now);
        LiveFleet.Refresh fromRows = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(withoutSummaries(store), now);
        same(visible(answers(fromSummaries.analysis())), visible(answers(fromRows.analysis())), "a start from rows", now);
        if (live != null) {
            FleetAnalysis kept = live.refresh(store, now).analysis();
            if (rebuilt == 0) {
                same(answers(fromSummaries.analysis()), answers(kept), "the stage that never stopped", now);
            }
        }
        assertThat(restart.summaryCounts().restored()).as("instances restored from their summary at %s", now)
                .isEqualTo(restored);
        assertThat(fromSummaries.rebuilt()).as("instances rebuilt from rows at %s", now).isEqualTo(rebuilt);
        return restart;
    }

    /** Only that a restart answers as a start from the rows (whatever it restored), then {@code live} brought to now. */
    private void check(SqlReportStore store, LiveFleet live, Instant now) throws Exception {
        LiveFleet.Refresh fromSummaries = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, now);
        LiveFleet.Refresh fromRows = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(withoutSummaries(store), now);
        same(visible(answers(fromSummaries.analysis())), visible(answers(fromRows.analysis())), "a start from rows", now);
        live.refresh(store, now);
    }

    /** Every answer the same, each one that differs named with both texts. */
    static void same(Map<String, String> restored, Map<String, String> other, String what, Instant now) {
        List<String> differ = new ArrayList<>();
        for (String key : new java.util.TreeSet<>(other.keySet())) {
            if (!other.get(key).equals(restored.get(key))) {
                differ.add(key + "\n  from summaries: " + restored.get(key) + "\n  " + what + ": " + other.get(key));
            }
        }
        assertThat(differ).as("answers of a restart at %s from summaries that differ from %s", now, what).isEmpty();
        assertThat(restored.keySet()).isEqualTo(other.keySet());
    }

    /** The answers a user sees (not what the stage keeps to work them out). */
    static Map<String, String> visible(Map<String, String> answers) {
        Map<String, String> out = new TreeMap<>(answers);
        out.keySet().removeIf(k -> k.startsWith("fulls ") || k.startsWith("gaps "));
        return out;
    }

    /**
     * What users see of an analysis: the alerts, each instance's windows API and creep, each database's restore plan and
     * usual gaps between backups, the compression comparison.
     */
    static Map<String, String> answers(FleetAnalysis analysis) {
        Map<String, String> out = new TreeMap<>();
        List<String> alerts = new ArrayList<>();
        for (Alert a : EVALUATOR.evaluate(analysis).alerts()) {
            alerts.add(GeneratedFleetGoldenTest.json(a).encode());
        }
        alerts.sort(Comparator.naturalOrder());
        out.put("alerts", String.join("\n", alerts));
        assertThat(alerts).as("the fleet fires alerts to compare").isNotEmpty();
        for (InstanceAnalysis ia : analysis.instances()) {
            out.put("windows " + ia.scope(), WindowsJson.of(ia).encode());
            out.put("creep " + ia.scope(), String.valueOf(ia.creep()));
            out.put("spills " + ia.scope(), String.valueOf(ia.spills()));
        }
        for (Map.Entry<String, MergedDatabase> e : analysis.databases().entrySet()) {
            List<LogChain> chains = e.getValue().chains();
            if (!chains.isEmpty()) {
                out.put("plan " + e.getKey(), String.valueOf(RestorePlanner.plan(chains)));
                for (LogChain c : chains) {
                    out.put("gaps " + e.getKey() + " " + c.scope(), c.usualGap(ChainBackup.FULL) + " "
                            + c.usualGap(ChainBackup.DIFFERENTIAL) + " " + c.usualGap(ChainBackup.LOG));
                }
            }
            out.put("fulls " + e.getKey(), String.valueOf(e.getValue().fulls().stream().map(f -> {
                StringBuilder s = new StringBuilder();
                for (int i = 0; i < f.size(); i++) {
                    s.append(f.finishMillis(i)).append('/').append(f.sizeBytes(i)).append('/').append(f.path(i)).append(' ');
                }
                return s.toString();
            }).toList()));
        }
        out.put("compression", String.valueOf(analysis.compression().rows()));
        return out;
    }

    /** {@code store} as one that keeps no summaries: a start from it reads every row. */
    static ReportStore withoutSummaries(ReportStore store) {
        return (ReportStore) Proxy.newProxyInstance(ReportStore.class.getClassLoader(), new Class<?>[] {ReportStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("summaries") || method.getName().equals("writeSummaries")) {
                        return null;
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
