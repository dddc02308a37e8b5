package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.BaselineFulls;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.TheilSen;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** backup-missing and backup-throughput-drop: judged per database across all its replicas. */
final class BackupRules {

    static final String MISSING_WHY = "The newest backup of this database is older than its recovery point objective: "
            + "if the database were lost now, more work would be lost than agreed. Backups from every replica of an "
            + "availability group count, so a backup taken on a secondary protects the database too.";
    static final String THROUGHPUT_WHY = "The latest full backup moved data much slower than this database's own "
            + "baseline for the same compression algorithm and target: a slow share, a saturated link, a QAT fallback "
            + "or storage trouble, and a longer window tonight.";

    private BackupRules() {
    }

    static List<Alert> missing(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.Missing cfg = rules.backupMissing();
        Duration fullMax = Duration.ofHours(cfg.fullMaxAgeHours());
        Duration fullOrDiffMax = Duration.ofHours(cfg.fullOrDifferentialMaxAgeHours());
        Duration logMax = Duration.ofMinutes(cfg.logMaxAgeMinutes());
        // age <= maxAge exactly when finished at or after now - maxAge: the common case needs no Duration
        Instant fullDue = fleet.now().minus(fullMax);
        Instant fullOrDiffDue = fleet.now().minus(fullOrDiffMax);
        Instant logDue = fleet.now().minus(logMax);
        List<Alert> out = new ArrayList<>();
        for (MergedDatabase db : fleet.databases().values()) {
            if (db.silent() || "tempdb".equalsIgnoreCase(db.name())) {
                continue;
            }
            // one pass for the three kinds: every database, every minute
            DatabaseBackup full = null;
            DatabaseBackup fullOrDiff = null;
            DatabaseBackup log = null;
            for (DatabaseBackup b : db.backups()) {
                switch (kindOf(b.type())) {
                    case FULL -> {
                        full = newer(full, b);
                        fullOrDiff = newer(fullOrDiff, b);
                    }
                    case DIFF -> fullOrDiff = newer(fullOrDiff, b);
                    case LOG -> log = newer(log, b);
                    default -> {
                    }
                }
            }
            check(fleet, rules, db, "full", full, fullMax, fullDue, out);
            check(fleet, rules, db, "full or differential", fullOrDiff, fullOrDiffMax, fullOrDiffDue, out);
            boolean logged = db.recoveryModel() != null && !"SIMPLE".equalsIgnoreCase(db.recoveryModel());
            if (logged && !"master".equalsIgnoreCase(db.name())) {
                check(fleet, rules, db, "log", log, logMax, logDue, out);
            }
        }
        return out;
    }

    private static final int OTHER = 0;
    private static final int FULL = 1;
    private static final int DIFF = 2;
    private static final int LOG = 3;

    /** msdb's type letter: D database, F file(group), P partial (fulls); I, G, Q their differentials; L log. */
    private static int kindOf(String type) {
        if (type == null || type.length() != 1) {
            return OTHER;
        }
        return switch (type.charAt(0)) {
            case 'D', 'F', 'P' -> FULL;
            case 'I', 'G', 'Q' -> DIFF;
            case 'L' -> LOG;
            default -> OTHER;
        };
    }

    /** The newer of two by finish, the first of equals (as {@code Stream.max}). */
    private static DatabaseBackup newer(DatabaseBackup newest, DatabaseBackup b) {
        return newest == null || b.finishedAfter(newest) ? b : newest;
    }

    private static void check(FleetAnalysis fleet, RulesConfig rules, MergedDatabase db, String kind, DatabaseBackup latest,
                              Duration maxAge, Instant due, List<Alert> out) {
        if (latest != null && !latest.finishedBefore(due)) {
            return;
        }
        if (db.appearedAt() != null && db.appearedAt().isAfter(due)) {
            // a new database: its objective counts from when it appeared (create_date, else first seen), not the epoch
            return;
        }
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("Objective", "a " + kind + " backup at least every " + human(maxAge)));
        String summary;
        if (latest == null) {
            summary = "No " + kind + " backup of " + db.name() + " in the last "
                    + fleet.config().windows().lookbackDays() + " days";
        } else {
            DatabaseBackup b = latest;
            // the summary names when the newest backup finished, not its age: an age in minutes or hours changed
            // every minute or hour, and AlertStore writes every alert row whose text changed
            summary = "No " + kind + " backup of " + db.name() + " since "
                    + b.finishedAt().truncatedTo(ChronoUnit.MINUTES).atOffset(ZoneOffset.UTC);
            facts.add(new Fact("Newest", b.finishedAt().atOffset(ZoneOffset.UTC) + " on " + b.instance()
                    + (b.copyOnly() ? " (copy-only)" : "")));
        }
        if (db.availabilityGroup() != null) {
            facts.add(new Fact("Availability group", db.availabilityGroup() + ", replicas " + String.join(", ", db.replicas())));
        }
        out.add(new Alert("backup-missing", rules.backupMissing().severity(), db.host(), db.instance(),
                db.name(), kind, summary, MISSING_WHY, facts, List.of()));
    }

    private static String human(Duration d) {
        long m = d.toMinutes();
        if (m % (24 * 60) == 0 || m >= 72 * 60) {
            return m >= 48 * 60 ? Math.round(m / 1440.0) + " days" : m / 60 + " h";
        }
        return m >= 120 ? m / 60 + " h" : m + " min";
    }

    /**
     * What a database's memoised backup-throughput-drop verdict was worked out for: one small object, not a list and its
     * array, held beside each single-copy database's fulls (~15 an instance) between evaluations. Compared by identity:
     * the rule hands the fulls the key they hold while its fields still {@link #matches} (an equals of a record, through
     * its generated method, was most of this rule's minute), and a new one only when one moved.
     */
    private static final class VerdictKey {
        private final RulesConfig.ThroughputDrop cfg;
        private final String name;
        private final String host;
        private final String instance;

        VerdictKey(RulesConfig.ThroughputDrop cfg, MergedDatabase db) {
            this.cfg = cfg;
            this.name = db.name();
            this.host = db.host();
            this.instance = db.instance();
        }

        /** Whether a verdict for this key is the verdict for {@code db} under {@code cfg}. */
        boolean matches(RulesConfig.ThroughputDrop cfg, MergedDatabase db) {
            return (this.cfg == cfg || this.cfg.equals(cfg)) && Objects.equals(name, db.name())
                    && Objects.equals(host, db.host()) && Objects.equals(instance, db.instance());
        }
    }

    static List<Alert> throughputDrop(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.ThroughputDrop cfg = rules.backupThroughputDrop();
        List<Alert> out = new ArrayList<>();
        for (MergedDatabase db : fleet.databases().values()) {
            // every database every minute: a database with one copy keeps its verdict while its fulls stay the same
            List<BaselineFulls> replicas = db.fulls();
            Optional<Alert> alert;
            if (replicas.size() == 1) {
                BaselineFulls only = replicas.get(0);
                VerdictKey key = only.memoKey() instanceof VerdictKey k && k.matches(cfg, db) ? k : new VerdictKey(cfg, db);
                alert = only.memo(key, () -> throughputDrop(db, cfg));
            } else {
                alert = throughputDrop(db, cfg);
            }
            alert.ifPresent(out::add);
        }
        return out;
    }

    /** backup-throughput-drop of one database: one pass over its replicas' kept fulls, no strings, no maps. */
    private static Optional<Alert> throughputDrop(MergedDatabase db, RulesConfig.ThroughputDrop cfg) {
        long minSeconds = cfg.minDurationMinutes() * 60L;
        List<BaselineFulls> replicas = db.fulls();
        BaselineFulls latestOf = null;
        int latest = -1;
        int count = 0;
        for (BaselineFulls f : replicas) {
            for (int i = 0; i < f.size(); i++) {
                if (f.durationSeconds(i) >= minSeconds
                        && (latestOf == null || f.finishMillis(i) >= latestOf.finishMillis(latest))) {
                    latestOf = f;
                    latest = i;
                }
                count++;
            }
        }
        if (latestOf == null) {
            return Optional.empty();
        }
        String path = latestOf.path(latest);
        // the path's fulls in the replicas' order, then stably by finish: the latest is the last
        BaselineFulls[] of = new BaselineFulls[count];
        int[] index = new int[count];
        int n = 0;
        for (BaselineFulls f : replicas) {
            int mine = -1;
            for (int i = 0; i < f.size(); i++) {
                if (f.durationSeconds(i) < minSeconds) {
                    continue;
                }
                if (mine < 0 || f.pathOf(i) != mine) {
                    if (!f.path(i).equals(path)) {
                        continue;
                    }
                    mine = f.pathOf(i);
                }
                of[n] = f;
                index[n] = i;
                n++;
            }
        }
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
        }
        Arrays.sort(order, Comparator.comparingLong(k -> of[k].finishMillis(index[k])));
        int baselineFrom = Math.max(0, n - 1 - cfg.baselineBackups());
        int baselineSize = n - 1 - baselineFrom;
        if (baselineSize < cfg.minBaselineBackups()) {
            return Optional.empty();
        }
        double[] mbps = new double[baselineSize];
        for (int k = 0; k < baselineSize; k++) {
            int o = order[baselineFrom + k];
            mbps[k] = of[o].throughputMbps(index[o]);
        }
        double median = TheilSen.median(mbps);
        double now = latestOf.throughputMbps(latest);
        if (now >= median * (1 - cfg.dropPercent() / 100.0)) {
            return Optional.empty();
        }
        double drop = (1 - now / median) * 100;
        List<Fact> facts = List.of(
                new Fact("Latest full", Fmt.one(now) + " MB/s (" + Fmt.bytes(latestOf.sizeBytes(latest)) + " in "
                        + Fmt.minutes(latestOf.durationSeconds(latest) / 60.0) + ", finished "
                        + latestOf.finishedAt(latest).atOffset(ZoneOffset.UTC) + " on " + latestOf.scope() + ")"),
                new Fact("Baseline", Fmt.one(median) + " MB/s, median of the previous " + baselineSize + " fulls"),
                new Fact("Drop", Fmt.one(drop) + " % (threshold " + Fmt.one(cfg.dropPercent()) + " %)"),
                new Fact("Algorithm and target", path.replace('|', ' ') + ""));
        List<Fact> series = new ArrayList<>();
        for (int k = Math.max(0, n - 14); k < n; k++) {
            int o = order[k];
            series.add(new Fact(of[o].finishedAt(index[o]).atOffset(ZoneOffset.UTC).toLocalDate().toString(),
                    Fmt.one(of[o].throughputMbps(index[o])) + " MB/s"));
        }
        return Optional.of(new Alert("backup-throughput-drop", cfg.severity(), db.host(), db.instance(), db.name(), path,
                "Full backup of " + db.name() + " ran at " + Fmt.one(now) + " MB/s, " + Fmt.one(drop)
                        + " % under its baseline of " + Fmt.one(median) + " MB/s",
                THROUGHPUT_WHY, facts, List.copyOf(series)));
    }
}
