package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.agDb;
import static io.qatwatch.collector.testing.Histories.guid;
import static io.qatwatch.collector.testing.Histories.qat;
import static io.qatwatch.collector.testing.Histories.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alerts and the windows API of a generated fleet, as the alert stage works them out minute after minute (cold,
 * a day minute, a night minute with a running backup, the morning after), against a golden file: how the stage keeps
 * its history in memory may change (issue 33's compact series), what it answers may not. The fleet is generated from
 * a fixed seed into a real SQLite store: weekly fulls and nightly differentials, log chains with LSNs (one gap, one log
 * to NUL, one differential without its base), CPU figures, QAT and Xpress, encryption, an availability group, a
 * creeping host, a throughput drop and a QAT fallback. A minute whose windows equal the previous minute's lists only
 * the windows that changed. Regenerate on purpose with {@code -Dqatwatch.regenerateGolden=true} and review the diff.
 */
class GeneratedFleetGoldenTest {

    static final Path GOLDEN = Path.of("src/test/resources/golden/generated-fleet.golden.txt");
    static final boolean REGENERATE = Boolean.getBoolean("qatwatch.regenerateGolden");
    static final AlertsConfig CONFIG = new AlertsConfig(null, null, null, new WindowSettings(false, false, 21),
            null, null, null).validate();
    static final Instant MORNING = Instant.parse("2026-11-25T09:00:00Z");
    private static final int NIGHTS = 24;
    static final int INSTANCES = 8;
    private static final String CERT = "0xC0FFEE01";
    private static final List<String> NAMES = List.of("Sales", "Billing", "HR", "Stock");

    private long setIds = 5000;
    private long reports;
    private final Map<String, Long> lsns = new HashMap<>();
    private final Map<String, String> fullCheckpoints = new HashMap<>();

    @Test
    void alertsAndWindowsOfAGeneratedFleetStayAsTheGoldenFileHasThem(@TempDir Path dir) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Database database = Database.open(dir)) {
            SqlReportStore store = new SqlReportStore(database);
            fill(store);
            LiveFleet live = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            AlertEvaluator evaluator = CONFIG.evaluator();
            Map<String, Map<String, String>> previous = new HashMap<>();

            step(out, "cold", live, store, evaluator, MORNING, previous);

            Instant day = MORNING.plus(Duration.ofMinutes(1));
            for (int i = 0; i < INSTANCES; i++) {
                store(store, i, day, logs(i, day.minusSeconds(120), 1), List.of());
            }
            step(out, "day minute", live, store, evaluator, day, previous);

            Instant night = evening(0).plus(Duration.ofMinutes(95));
            for (int i = 0; i < INSTANCES; i++) {
                List<BackupRecord> tonight = nightly(i, 0).stream().filter(b -> !b.finishedAt().isAfter(night)).toList();
                List<RunningBackup> runs = i == 1 ? List.of(running("Stock", night.minusSeconds(1500), 35, 1500)) : List.of();
                store(store, i, night, tonight, runs);
            }
            step(out, "night minute", live, store, evaluator, night, previous);

            Instant morning = evening(1).minus(Duration.ofHours(14)).plus(Duration.ofMinutes(2));
            for (int i = 0; i < INSTANCES; i++) {
                List<BackupRecord> rest = nightly(i, 0).stream().filter(b -> b.finishedAt().isAfter(night)).toList();
                List<BackupRecord> all = new ArrayList<>(rest);
                all.addAll(logs(i, morning.minusSeconds(300), 1));
                store(store, i, morning, all, List.of());
            }
            step(out, "morning minute", live, store, evaluator, morning, previous);
        }
        String actual = out.toString();
        assertThat(actual).as("the generated fleet fires what its history was made for")
                .contains("\"rule\":\"backup-window-creep\"", "\"rule\":\"backup-throughput-drop\"",
                        "\"rule\":\"log-chain-broken\"", "\"rule\":\"differential-base-missing\"",
                        "\"rule\":\"cert-key-not-backed-up\"", "\"rule\":\"qat-fallback\"", "\"spillForecasts\":[{");
        if (REGENERATE || !Files.exists(GOLDEN)) {
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, actual);
            assertThat(REGENERATE).as("golden file %s was missing and has been written; review and commit it", GOLDEN)
                    .isTrue();
        }
        assertThat(actual).as("alerts or windows differ from %s (regenerate with -Dqatwatch.regenerateGolden=true)", GOLDEN)
                .isEqualTo(Files.readString(GOLDEN));
    }

    /** The fleet's {@link #NIGHTS} nights before {@link #MORNING}: the history every minute of the test starts from. */
    void fill(SqlReportStore store) throws Exception {
        for (int night = -NIGHTS; night < 0; night++) {
            for (int i = 0; i < INSTANCES; i++) {
                List<BackupRecord> backups = new ArrayList<>(nightly(i, night));
                backups.addAll(logs(i, evening(night).plus(Duration.ofHours(8)), 3));
                store(store, i, evening(night + 1).minus(Duration.ofHours(13)), backups, List.of());
            }
        }
    }

    /** One minute of the stage: its alerts, one a line, then each instance's windows API, changed windows only. */
    private static void step(StringBuilder out, String name, LiveFleet live, SqlReportStore store, AlertEvaluator evaluator,
                             Instant now, Map<String, Map<String, String>> previous) throws Exception {
        FleetAnalysis analysis = live.refresh(store, now).analysis();
        out.append("== ").append(name).append(" at ").append(now).append('\n');
        List<String> alerts = new ArrayList<>();
        for (Alert a : evaluator.evaluate(analysis).alerts()) {
            alerts.add(json(a).encode());
        }
        alerts.sort(Comparator.naturalOrder());
        alerts.forEach(a -> out.append("alert ").append(a).append('\n'));
        List<InstanceAnalysis> instances = new ArrayList<>(analysis.instances());
        instances.sort(Comparator.comparing(InstanceAnalysis::scope));
        for (InstanceAnalysis ia : instances) {
            JsonObject windows = WindowsJson.of(ia);
            Map<String, String> before = previous.getOrDefault(ia.scope(), Map.of());
            Map<String, String> now2 = new HashMap<>();
            JsonArray changed = new JsonArray();
            TreeSet<String> unchanged = new TreeSet<>();
            for (Object o : windows.getJsonArray("windows")) {
                JsonObject w = (JsonObject) o;
                String text = w.encode();
                now2.put(w.getString("morning"), text);
                if (text.equals(before.get(w.getString("morning")))) {
                    unchanged.add(w.getString("morning"));
                } else {
                    changed.add(w);
                }
            }
            previous.put(ia.scope(), now2);
            windows.put("windows", changed).put("unchangedWindows", new JsonArray(new ArrayList<>(unchanged)));
            out.append("windows ").append(windows.encode()).append('\n');
        }
    }

    static JsonObject json(Alert a) {
        JsonArray facts = new JsonArray();
        a.facts().forEach(f -> facts.add(new JsonArray().add(f.label()).add(f.value())));
        JsonArray series = new JsonArray();
        a.series().forEach(f -> series.add(new JsonArray().add(f.label()).add(f.value())));
        return new JsonObject().put("rule", a.rule()).put("id", a.id()).put("severity", a.severity().label())
                .put("host", a.host()).put("instance", a.instance()).put("database", a.database())
                .put("subject", a.subject()).put("summary", a.summary()).put("why", a.why()).put("facts", facts)
                .put("series", series).put("forecast", a.forecast() == null ? null : a.forecast().toString());
    }

    private static String host(int i) {
        return "gen" + i;
    }

    /** Night {@code n}'s evening, 21:00 UTC; night -1 ends on the morning of {@link #MORNING}. */
    static Instant evening(int night) {
        return MORNING.truncatedTo(java.time.temporal.ChronoUnit.DAYS).plus(Duration.ofHours(21)).plus(Duration.ofDays(night));
    }

    /** Each instance's own databases, and the availability group's one database on both replicas. */
    private static String databaseGuid(int i, String name) {
        return name.equals("AgSales") ? guid(name) : guid(host(i) + "/" + name);
    }

    private static List<String> databases(int i) {
        return i >= 6 ? List.of("AgSales", "Stock") : NAMES;
    }

    private static String recovery(String db) {
        return db.equals("Sales") || db.equals("AgSales") || db.equals("Billing") ? "FULL" : "SIMPLE";
    }

    private final Map<String, List<BackupRecord>> nights = new HashMap<>();

    /** Instance {@code i}'s fulls and differentials of night {@code n}, generated once. */
    List<BackupRecord> nightly(int i, int night) {
        return nights.computeIfAbsent(i + "/" + night, k -> generate(i, night));
    }

    private List<BackupRecord> generate(int i, int night) {
        SplittableRandom random = new SplittableRandom(31L * i + night + 1000);
        List<BackupRecord> out = new ArrayList<>();
        Instant at = evening(night).plusSeconds(600L * i);
        int age = night + NIGHTS;
        // gen1 starts later and runs longer every night: it creeps
        if (i == 1) {
            at = at.plus(Duration.ofMinutes(200 + 7L * age));
        }
        for (String name : databases(i)) {
            if (i == 7 && name.equals("AgSales") && Math.floorMod(night, 7) != 3) {
                continue;
            }
            boolean full = Math.floorMod(night, 7) == 0 || name.equals("Sales");
            long gib = (name.length() * 7L + i) * (full ? 10 : 1);
            long seconds = 300 + random.nextInt(120) + gib * 9 + (i == 1 ? 240L * age : 0);
            // gen2's Sales fulls run three times slower in the last three nights: a throughput drop
            if (i == 2 && name.equals("Sales") && night >= -3) {
                seconds *= 3;
            }
            String algorithm = i % 2 == 0 ? "QAT_DEFLATE" : "MS_XPRESS";
            if (name.equals("Stock")) {
                algorithm = Math.floorMod(night, 2) == 0 ? "QAT_DEFLATE" : "MS_XPRESS";
            }
            boolean encrypted = i == 4 && name.equals("Sales");
            boolean copyOnly = i == 7;
            out.add(record(i, name, copyOnly ? "D" : full ? "D" : "I", copyOnly, at, seconds, gib << 30, algorithm,
                    encrypted, i == 5 ? "URL" : "UNC", random));
            at = at.plusSeconds(seconds + 60);
        }
        return out;
    }

    /** {@code count} log backups of each database in full recovery, five minutes apart from {@code from}. */
    List<BackupRecord> logs(int i, Instant from, int count) {
        SplittableRandom random = new SplittableRandom(from.getEpochSecond() + i);
        List<BackupRecord> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            for (String name : databases(i)) {
                if (recovery(name).equals("FULL") && !(i == 7 && name.equals("AgSales"))) {
                    out.add(record(i, name, "L", false, from.plusSeconds(300L * k), 20 + random.nextInt(30),
                            (64L + random.nextInt(64)) << 20, i % 2 == 0 ? "QAT_DEFLATE" : "MS_XPRESS", false, "UNC", random));
                }
            }
        }
        return out;
    }

    private BackupRecord record(int i, String name, String type, boolean copyOnly, Instant start, long seconds, long bytes,
                                String algorithm, boolean encrypted, String target, SplittableRandom random) {
        String key = i >= 6 && name.equals("AgSales") ? "ag/" + name : host(i) + "/" + name;
        long first = lsns.getOrDefault(key, 31_000_000_000_000L + i * 1_000_000_000L);
        // gen3's Billing chain loses a stretch of log after last night's differential: a gap
        boolean lastNightsLog = type.equals("L") && start.isAfter(evening(-1).plus(Duration.ofHours(7))) && start.isBefore(MORNING);
        if (i == 3 && name.equals("Billing") && lastNightsLog && !lsns.containsKey(key + "/gap")) {
            lsns.put(key + "/gap", 1L);
            first += 50_000;
        }
        long last = first + 1000 + random.nextInt(1000);
        lsns.put(key, last);
        String checkpoint = String.valueOf(first + 10);
        String base = null;
        if (type.equals("D") && !copyOnly) {
            fullCheckpoints.put(key, checkpoint);
        } else if (type.equals("I")) {
            // gen5's Stock differentials of the last night name a base that msdb no longer holds
            base = i == 5 && name.equals("Stock") && start.isAfter(evening(-1)) ? "12345" : fullCheckpoints.get(key);
        }
        // gen6 sends one of last night's log backups of AgSales to NUL
        String device = i == 6 && lastNightsLog && name.equals("AgSales") ? "NUL"
                : (target.equals("URL") ? "https://backups.example/" : "\\\\backup\\") + host(i) + "\\" + name + "_" + type
                        + "_" + start.getEpochSecond() + (type.equals("L") ? ".trn" : ".bak");
        BackupCpu cpu = type.equals("L") ? null : new BackupCpu(seconds * 400, seconds * 410, (int) (seconds / 15),
                start.plusSeconds(5), start.plusSeconds(seconds - 5), seconds * 900, (int) (seconds / 15), i != 3, null);
        return new BackupRecord(setIds++, name, databaseGuid(i, name), type, copyOnly, start, start.plusSeconds(seconds), true, bytes,
                algorithm.equals("QAT_DEFLATE") ? bytes / 4 : bytes / 3, algorithm, true,
                encrypted ? "AES_256" : BackupRecord.NO_ENCRYPTION, encrypted ? CERT : null, encrypted ? "CERTIFICATE" : null,
                target.equals("URL") ? "URL" : "DISK", target, guid(key + "/family"), false, target.equals("URL") ? 1 : null,
                String.valueOf(first), String.valueOf(last), checkpoint, fullCheckpoints.get(key), base,
                base == null ? null : guid(key + "/base"), recovery(name), type.equals("D") && !copyOnly && first < 31_000_000_002_000L
                        + i * 1_000_000_000L, false, device, cpu);
    }

    void store(SqlReportStore store, int i, Instant at, List<BackupRecord> backups, List<RunningBackup> runs)
            throws Exception {
        store(store, i, at, backups, runs, List.of());
    }

    /** As above, the instance holding {@code extra} databases besides its own (its sections change with them). */
    void store(SqlReportStore store, int i, Instant at, List<BackupRecord> backups, List<RunningBackup> runs,
               List<DatabaseInfo> extra) throws Exception {
        List<DatabaseInfo> dbs = new ArrayList<>();
        for (String name : databases(i)) {
            dbs.add(name.equals("AgSales") ? agDb(name, "agSales", i == 6 ? "PRIMARY" : "SECONDARY")
                    : new DatabaseInfo(name, databaseGuid(i, name), recovery(name), "NONE", null, null, null));
        }
        dbs.addAll(extra);
        // gen0 runs QAT in hardware; gen4 did until a week ago, then fell back to software; the others have none
        List<AcceleratorStatus> accelerators = i == 0 || i == 4 && at.isBefore(evening(-7))
                ? List.of(qat("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU"))
                : i == 4 ? List.of(qat("SOFTWARE", "SOFTWARE_MODE_HARDWARE_NOT_DETECTED")) : List.of();
        List<CertificateInfo> certs = i == 4 ? List.of(new CertificateInfo("BackupCert", CERT, null, null, true)) : List.of();
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot("MSSQLSERVER", at, null, List.of(), accelerators, dbs, backups,
                runs, certs, null);
        store.store(host(i), new AgentReport(AgentReport.SCHEMA_VERSION, new UUID(i, reports).toString(), at,
                new AgentInfo(host(i), "0.1.0", 100, 0, 0, 0), null, null, null, List.of(instance), List.of()),
                at.plusSeconds(1 + reports++ % 3));
    }
}
