package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.agDb;
import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.guid;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.analysis.FleetState.HostState;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The alert stage's merge keeps each instance's merged databases from one evaluation to the next while everything the
 * merge reads of the instance is the same ({@link MergedContributions}): a minute later they are the very records; a new
 * backup, a section change, the lookback period's start crossing a backup, the agent going silent and a baseline's entry
 * leaving give new ones; a database of an availability group (several replicas) and one a backup of another instance is
 * keyed to are merged again from the contributions. Every evaluation equals the same inputs merged without the memo.
 */
class MergedContributionsTest {

    private static final Instant T0 = Instant.parse("2026-11-04T10:00:00Z");
    private static final int LOOKBACK_DAYS = 14;
    private static final AnalysisConfig CONFIG = new AlertsConfig(null, null, null,
            new WindowSettings(false, false, LOOKBACK_DAYS), null, null, null).validate().analysis();

    /** What the alert stage keeps of one instance between minutes, each replaced only when it changes. */
    private static final class Inputs {
        final String host;
        List<DatabaseInfo> databases;
        List<BackupRecord> backups;
        DatabaseIdentities ids;
        List<DatabaseBackup> keyed;
        Map<String, BaselineFulls> fulls;
        final Map<String, LogChain> chains = new HashMap<>();
        Instant lastSeen;

        Inputs(String host, List<DatabaseInfo> databases, List<BackupRecord> backups) {
            this.host = host;
            sections(databases, backups);
        }

        /** New databases or backups: what the stage keys and keeps of them, made again. */
        void sections(List<DatabaseInfo> databases, List<BackupRecord> backups) {
            this.databases = List.copyOf(databases);
            this.backups = List.copyOf(backups);
            String scope = host + "/MSSQLSERVER";
            InstanceState state = state(T0);
            ids = DatabaseIdentities.of(scope, state);
            keyed = this.backups.stream().map(b -> FleetAnalysis.toBackup(scope, b, ids)).toList();
            fulls = new HashMap<>(BaselineFulls.of(scope, this.backups, ids, CONFIG));
        }

        InstanceState state(Instant collectedAt) {
            return new InstanceState("MSSQLSERVER", collectedAt, null, List.of(), List.of(), databases, List.of(),
                    List.of(), List.of(), backups);
        }
    }

    private final Map<String, Inputs> fleet = new LinkedHashMap<>();
    private final MergedContributions contributions = new MergedContributions();

    @Test
    void anUnchangedInstanceKeepsItsMergedDatabasesAndEachInputChangeMergesAgain() {
        List<BackupRecord> solo = new ArrayList<>();
        List<BackupRecord> secondary = new ArrayList<>();
        for (int n = 1; n <= 10; n++) {
            Instant evening = T0.minus(Duration.ofDays(n)).minus(Duration.ofHours(12));
            solo.add(backup("Sales", "D", evening, 1800, 90L << 30, "QAT_DEFLATE", "UNC"));
            solo.add(backup("Stock", "D", evening.plusSeconds(2400), 600, 10L << 30, "MS_XPRESS", "UNC"));
            secondary.add(backup("AgSales", "D", evening, 1200, 50L << 30, "QAT_DEFLATE", "UNC"));
        }
        fleet.put("sql-solo", new Inputs("sql-solo", List.of(db("Sales", "FULL"), db("Stock", "SIMPLE")), solo));
        fleet.put("sql-ag1", new Inputs("sql-ag1", List.of(agDb("AgSales", "agSales", "PRIMARY")), List.of()));
        fleet.put("sql-ag2", new Inputs("sql-ag2", List.of(agDb("AgSales", "agSales", "SECONDARY")), secondary));
        String sales = guid("Sales");
        String stock = guid("Stock");
        String agSales = "ag:agsales/agsales";

        FleetAnalysis first = evaluate(T0);
        assertThat(first.databases().get(agSales).replicas()).containsExactly("sql-ag1/MSSQLSERVER", "sql-ag2/MSSQLSERVER");
        assertThat(first.databases().get(agSales).backups()).hasSize(10);

        // a heartbeat: nothing the merge reads moved
        FleetAnalysis heartbeat = evaluate(T0.plusSeconds(60));
        assertThat(heartbeat.databases().get(sales)).as("Sales after a heartbeat").isSameAs(first.databases().get(sales));
        assertThat(heartbeat.databases().get(stock)).as("Stock after a heartbeat").isSameAs(first.databases().get(stock));
        assertThat(heartbeat.databases().get(agSales)).as("an availability database is merged again from its replicas")
                .isNotSameAs(first.databases().get(agSales)).isEqualTo(first.databases().get(agSales));

        // a new backup
        Inputs soloInputs = fleet.get("sql-solo");
        List<BackupRecord> more = new ArrayList<>(soloInputs.backups);
        more.add(backup("Stock", "L", T0.plusSeconds(100), 10, 1L << 20, "MS_XPRESS", "UNC"));
        soloInputs.sections(soloInputs.databases, more);
        FleetAnalysis backedUp = evaluate(T0.plusSeconds(120));
        assertThat(backedUp.databases().get(stock)).as("Stock after its new backup").isNotSameAs(heartbeat.databases().get(stock));
        assertThat(backedUp.databases().get(stock).backups()).hasSize(11);

        // a section change
        soloInputs.sections(List.of(db("Sales", "FULL"), db("Stock", "SIMPLE"), db("HR", "SIMPLE")), soloInputs.backups);
        FleetAnalysis changed = evaluate(T0.plusSeconds(180));
        assertThat(changed.databases().get(sales)).as("Sales after a section change").isNotSameAs(backedUp.databases().get(sales));
        assertThat(changed.databases()).containsKey(guid("HR"));

        // the lookback period's start reaches the oldest Sales backup's finish: kept until the instant before
        Instant leaves = solo.get(solo.size() - 2).finishedAt().plus(Duration.ofDays(LOOKBACK_DAYS));
        FleetAnalysis before = evaluate(leaves.minusSeconds(1));
        assertThat(before.databases().get(sales)).as("Sales a second before its oldest backup leaves")
                .isSameAs(changed.databases().get(sales));
        FleetAnalysis crossed = evaluate(leaves);
        assertThat(crossed.databases().get(sales)).as("Sales once its oldest backup left").isNotSameAs(before.databases().get(sales));
        assertThat(crossed.databases().get(sales).backups()).hasSize(before.databases().get(sales).backups().size() - 1);

        // a failover: the partner's rows change, the database's primary moves; the unrelated instance keeps its records
        fleet.get("sql-ag1").sections(List.of(agDb("AgSales", "agSales", "SECONDARY")), List.of());
        fleet.get("sql-ag2").sections(List.of(agDb("AgSales", "agSales", "PRIMARY")), secondary);
        FleetAnalysis failedOver = evaluate(leaves.plusSeconds(60));
        assertThat(failedOver.databases().get(agSales).host()).isEqualTo("sql-ag2");
        assertThat(failedOver.databases().get(stock)).isSameAs(crossed.databases().get(stock));

        // the agents of the group go silent
        fleet.get("sql-ag1").lastSeen = leaves.minus(Duration.ofHours(2));
        fleet.get("sql-ag2").lastSeen = leaves.minus(Duration.ofHours(2));
        FleetAnalysis silent = evaluate(leaves.plusSeconds(120));
        assertThat(silent.databases().get(agSales).silent()).isTrue();
        assertThat(silent.databases().get(stock)).isSameAs(crossed.databases().get(stock));
        fleet.get("sql-solo").lastSeen = leaves.minus(Duration.ofHours(2));
        FleetAnalysis soloSilent = evaluate(leaves.plusSeconds(180));
        assertThat(soloSilent.databases().get(stock).silent()).as("Stock once its agent is silent").isTrue();
        fleet.get("sql-solo").lastSeen = null;
        fleet.get("sql-ag1").lastSeen = null;
        fleet.get("sql-ag2").lastSeen = null;

        // a baseline's entry leaves the instance's kept fulls (the stage changes that map in place)
        FleetAnalysis withFulls = evaluate(leaves.plusSeconds(240));
        assertThat(withFulls.databases().get(stock).fulls()).hasSize(1);
        soloInputs.fulls.remove(stock);
        FleetAnalysis withoutFulls = evaluate(leaves.plusSeconds(300));
        assertThat(withoutFulls.databases().get(stock).fulls()).isEmpty();
        assertThat(withoutFulls.databases().get(sales)).as("the instance is merged again as a whole")
                .isNotSameAs(withFulls.databases().get(sales)).isEqualTo(withFulls.databases().get(sales));

        // a backup of another instance keyed to Stock (a database moved with its guid): Stock is merged again
        Instant late = leaves.plusSeconds(330);
        fleet.get("sql-ag1").sections(fleet.get("sql-ag1").databases,
                List.of(backup("Stock", "D", late.minusSeconds(20), 10, 1L << 30, "MS_XPRESS", "UNC")));
        FleetAnalysis moved = evaluate(leaves.plusSeconds(360));
        assertThat(moved.databases().get(stock).backups()).extracting(DatabaseBackup::instance)
                .contains("sql-ag1/MSSQLSERVER");
        assertThat(moved.databases().get(sales)).isSameAs(withoutFulls.databases().get(sales));
    }

    /**
     * Evaluates the fleet at {@code now} as the alert stage does, keeping the contributions, and holds it to the same
     * inputs merged without them; each agent reported at {@code now} unless its {@code lastSeen} is set.
     */
    private FleetAnalysis evaluate(Instant now) {
        Map<InstanceState, Inputs> of = new IdentityHashMap<>();
        List<HostState> hosts = new ArrayList<>();
        for (Inputs in : fleet.values()) {
            Instant seen = in.lastSeen != null ? in.lastSeen : now;
            InstanceState state = in.state(seen);
            of.put(state, in);
            hosts.add(new HostState(in.host, Set.of(), seen, null, null, null, List.of(state)));
        }
        FleetState state = new FleetState(hosts);
        FleetAnalysis kept = analysis(state, now, of, contributions);
        FleetAnalysis merged = analysis(state, now, of, null);
        assertThat(List.copyOf(kept.databases().keySet())).as("databases at %s", now)
                .isEqualTo(List.copyOf(merged.databases().keySet()));
        merged.databases().forEach((key, m) -> assertThat(kept.databases().get(key)).as("%s at %s", key, now)
                .isEqualTo(m));
        return kept;
    }

    private static FleetAnalysis analysis(FleetState state, Instant now, Map<InstanceState, Inputs> of,
                                          MergedContributions contributions) {
        return new FleetAnalysis(state, CONFIG, now, i -> history(of.get(i), i, now), i -> of.get(i).keyed,
                i -> of.get(i).fulls, null, i -> of.get(i).ids, i -> of.get(i).chains, contributions);
    }

    private static FleetAnalysis.History history(Inputs in, InstanceState i, Instant now) {
        return FleetAnalysis.history(in.host + "/" + i.name(), CONFIG.businessCalendars().get(
                CONFIG.calendarNameFor(in.host, i.name(), Set.of())), i, i.backups(), CONFIG, now);
    }
}
