package io.qatwatch.collector.alert.rule;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.berlin;
import static io.qatwatch.collector.testing.Histories.db;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.AnalysisConfig;
import io.qatwatch.collector.analysis.BaselineFulls;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.History;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetState;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The rules of a minute in which nothing an alert is made of moved (an agent only reported again): backup-window-creep,
 * backup-window-breach's cause and qat-restore-risk hand out the alert they made the minute before, the very object, and
 * make a new one when an input changes or a due time passes, always equal to what an evaluator that remembers nothing
 * gives. backup-throughput-drop's verdict, kept beside a database's fulls, is worked out again when its database's name or
 * the rule's thresholds change.
 */
class UnchangedMinuteRulesTest {

    private static final CalendarConfig RETAIL = new CalendarConfig("retail", "Europe/Berlin",
            Map.of("mon-sun", "07:00-19:00"), List.of(), 60);
    private static final AlertsConfig CONFIG = new AlertsConfig(List.of(RETAIL), null, null, null, null, null, null).validate();
    /** The stage's one analysis configuration (each call of {@code analysis()} makes its calendars anew). */
    private static final AnalysisConfig ANALYSIS = CONFIG.analysis();
    private static final LocalDate D0 = LocalDate.of(2026, 1, 5);
    /** The morning of the last night: Shop's last full ran slow into business hours, Archive's margin creeps. */
    private static final Instant MORNING = berlin(D0.plusDays(29), 8, 0);
    private static final QatFacts NO_QAT = new QatFacts(List.of(), QatSoftware.none(), false);
    /** The rules that remember an alert by the analysis' objects (backup-throughput-drop keeps it beside the fulls). */
    private static final Set<String> REMEMBERED = Set.of("backup-window-creep", "backup-window-breach", "qat-restore-risk");

    /** Archive on sql-arc grows 1 % a week, a nightly QAT_DEFLATE full at 00:05: its window's margin creeps. */
    private final List<BackupRecord> archive = new ArrayList<>();
    /** Shop on sql-shop: a full at 01:00 for an hour each night; the last night's started 05:00 and took 2.5 hours. */
    private final List<BackupRecord> shop = new ArrayList<>();
    private final List<DatabaseInfo> archiveDbs = List.of(db("Archive", "SIMPLE"));
    private final List<DatabaseInfo> shopDbs = List.of(db("Shop", "SIMPLE"));
    /** Each instance's history, worked out once as the alert stage keeps it. */
    private final Map<String, History> histories = new HashMap<>();

    UnchangedMinuteRulesTest() {
        for (int k = 0; k < 30; k++) {
            long bytes = 2_000_000_000_000L + Math.round(k * 20_000_000_000.0 / 7);
            archive.add(backup("Archive", "D", berlin(D0.plusDays(k), 0, 5), Math.round(bytes / 1e8), bytes, "QAT_DEFLATE",
                    "VIRTUAL_DEVICE"));
            shop.add(k < 29 ? backup("Shop", "D", berlin(D0.plusDays(k), 1, 0), 3600, 360_000_000_000L, "MS_XPRESS", "UNC")
                    : backup("Shop", "D", berlin(D0.plusDays(k), 5, 0), 9000, 360_000_000_000L, "MS_XPRESS", "UNC"));
        }
    }

    @Test
    void aHeartbeatMinuteGetsTheSameAlertsBackAndADueTimeOrANewInputNewOnes() {
        AlertEvaluator stage = CONFIG.evaluator();
        FleetState fleet = fleet(MORNING, NO_QAT);
        Map<String, Alert> first = remembered(stage, kept(fleet, MORNING));
        assertThat(first.keySet()).as("what the fleet fires").containsExactlyInAnyOrder(
                "backup-window-creep sql-arc/ARCHIVE-less", "qat-restore-risk sql-arc/Archive",
                "backup-window-breach sql-shop/SHOP-less");

        // a minute later the agents reported again, nothing else: every alert is the one of the minute before
        Instant later = MORNING.plusSeconds(60);
        Map<String, Alert> heartbeat = remembered(stage, kept(fleet(later, NO_QAT), later));
        first.forEach((id, a) -> assertThat(heartbeat.get(id)).as("%s a minute later", id).isSameAs(a));

        // the business day ends: the breach is history, the rest stays
        Instant evening = berlin(D0.plusDays(29), 19, 0);
        Map<String, Alert> closed = remembered(stage, kept(fleet(evening, NO_QAT), evening));
        assertThat(closed).doesNotContainKey("backup-window-breach sql-shop/SHOP-less");
        assertThat(closed.get("backup-window-creep sql-arc/ARCHIVE-less")).isSameAs(first.get("backup-window-creep sql-arc/ARCHIVE-less"));

        // the next day, no new backup: the creep forecast is a day nearer, so the alert is a new one
        Instant nextDay = berlin(D0.plusDays(30), 6, 0);
        Map<String, Alert> tomorrow = remembered(stage, kept(fleet(nextDay, NO_QAT), nextDay));
        Alert creep = tomorrow.get("backup-window-creep sql-arc/ARCHIVE-less");
        assertThat(creep).isNotEqualTo(first.get("backup-window-creep sql-arc/ARCHIVE-less"));
        assertThat(creep.facts()).anyMatch(f -> f.label().equals("Forecast") && f.value().contains("(in 16 days)"));

        // another host without QAT joins the fleet: the restore risk names it
        Map<String, Alert> joined = remembered(stage, kept(withLab2(fleet(nextDay, NO_QAT)), nextDay));
        Alert risk = joined.get("qat-restore-risk sql-arc/Archive");
        assertThat(risk).isNotEqualTo(first.get("qat-restore-risk sql-arc/Archive"));
        assertThat(risk.summary()).endsWith("cannot be restored on 2 host(s) of the fleet");

        // a history worked out again (new windows and fit, the same nights): a new alert, the same text
        histories.clear();
        Map<String, Alert> rebuilt = remembered(stage, kept(fleet(nextDay, NO_QAT), nextDay));
        assertThat(rebuilt.get("backup-window-creep sql-arc/ARCHIVE-less")).isNotSameAs(creep).isEqualTo(creep);
    }

    @Test
    void theThroughputVerdictKeptBesideTheFullsFollowsTheDatabaseNameAndTheThresholds() {
        FleetAnalysis first = kept(fleet(MORNING, NO_QAT), MORNING);
        Alert drop = only(BackupRules.throughputDrop(first, CONFIG.rules()));
        BaselineFulls fulls = first.databases().values().stream().filter(m -> m.name().equals("Shop")).findFirst()
                .orElseThrow().fulls().get(0);
        Object key = fulls.memoKey();
        assertThat(key).as("the verdict is kept beside the fulls").isNotNull();

        // the same fulls a minute later: the kept verdict, for the kept key
        FleetAnalysis heartbeat = withFulls(fleet(MORNING.plusSeconds(60), NO_QAT), MORNING.plusSeconds(60), first);
        assertThat(only(BackupRules.throughputDrop(heartbeat, CONFIG.rules()))).isSameAs(drop);
        assertThat(fulls.memoKey()).isSameAs(key);

        // the database renamed (the same guid, so the same fulls): the verdict names the new name
        List<DatabaseInfo> renamed = List.of(new DatabaseInfo("ShopEU", shopDbs.get(0).databaseGuid(), "SIMPLE", "NONE",
                null, null, null));
        FleetAnalysis rename = withFulls(fleet(MORNING.plusSeconds(120), NO_QAT, renamed), MORNING.plusSeconds(120), first);
        assertThat(only(BackupRules.throughputDrop(rename, CONFIG.rules())).summary()).startsWith("Full backup of ShopEU ran at");

        // a threshold above the drop (60 %): no verdict, though the fulls are the same
        RulesConfig strict = new RulesConfig(null, null, null, null,
                new RulesConfig.ThroughputDrop(null, null, null, null, 70.0, null), null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(BackupRules.throughputDrop(rename, strict)).isEmpty();
        assertThat(only(BackupRules.throughputDrop(rename, CONFIG.rules())).summary()).startsWith("Full backup of ShopEU");
    }

    private static Alert only(List<Alert> alerts) {
        assertThat(alerts).hasSize(1);
        return alerts.get(0);
    }

    /**
     * The remembered rules' alerts of {@code stage}'s evaluation of {@code analysis}, by rule and place, after holding the
     * whole evaluation to one by an evaluator that remembers nothing, of the analysis worked out afresh.
     */
    private static Map<String, Alert> remembered(AlertEvaluator stage, FleetAnalysis analysis) {
        List<Alert> alerts = stage.evaluate(analysis).alerts();
        FleetAnalysis fresh = new FleetAnalysis(analysis.fleet(), ANALYSIS, analysis.now());
        assertThat(alerts).as("alerts at %s", analysis.now()).isEqualTo(stage.anew().evaluate(fresh).alerts());
        Map<String, Alert> out = new HashMap<>();
        for (Alert a : alerts) {
            if (REMEMBERED.contains(a.rule())) {
                out.put(a.rule() + " " + a.host() + "/" + (a.database() == null ? a.instance() + "-less" : a.database()), a);
            }
        }
        return out;
    }

    /** {@code fleet} analysed at {@code now} with each instance's history kept from the first analysis. */
    private FleetAnalysis kept(FleetState fleet, Instant now) {
        return new FleetAnalysis(fleet, ANALYSIS, now, i -> histories.computeIfAbsent(i.name(),
                n -> FleetAnalysis.history((n.equals("SHOP") ? "sql-shop/" : "sql-arc/") + n,
                        ANALYSIS.businessCalendars().get("retail"), i, i.backups(), ANALYSIS, now)));
    }

    /** {@code fleet} analysed at {@code now} with the baseline fulls of {@code before}'s Shop database. */
    private FleetAnalysis withFulls(FleetState fleet, Instant now, FleetAnalysis before) {
        MergedDatabase m = before.databases().values().stream().filter(d -> d.name().equals("Shop")).findFirst().orElseThrow();
        Map<String, BaselineFulls> fulls = Map.of(m.key(), m.fulls().get(0));
        return new FleetAnalysis(fleet, ANALYSIS, now, null, null,
                i -> i.name().equals("SHOP") ? fulls : Map.of());
    }

    /** The fleet whose agents last reported at {@code at}, the same section and backup lists each time. */
    private FleetState fleet(Instant at, QatFacts lab) {
        return fleet(at, lab, shopDbs);
    }

    private FleetState fleet(Instant at, QatFacts lab, List<DatabaseInfo> shopDatabases) {
        Instant seen = at.minusSeconds(30);
        return new FleetState(List.of(
                new HostState("sql-arc", Set.of(), seen, null, null, null, List.of(instance("ARCHIVE", seen, archiveDbs, archive))),
                new HostState("sql-shop", Set.of(), seen, null, null, null, List.of(instance("SHOP", seen, shopDatabases, shop))),
                new HostState("lab-01", Set.of(), seen, null, lab, null, List.of())));
    }

    private static FleetState withLab2(FleetState fleet) {
        List<HostState> hosts = new ArrayList<>(fleet.hosts());
        hosts.add(new HostState("lab-02", Set.of(), hosts.get(0).lastSeen(), null, NO_QAT, null, List.of()));
        return new FleetState(hosts);
    }

    private static InstanceState instance(String name, Instant at, List<DatabaseInfo> dbs, List<BackupRecord> backups) {
        return new InstanceState(name, at, null, List.of(), List.of(), dbs, List.of(), List.of(), List.of(), backups);
    }
}
