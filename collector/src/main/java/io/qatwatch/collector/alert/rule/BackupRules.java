package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.MergedDatabase;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.TheilSen;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** backup-missing and backup-throughput-drop: judged per database across all its replicas. */
final class BackupRules {

    static final String MISSING_WHY = "The newest backup of this database is older than its recovery point objective: "
            + "if the database were lost now, more work would be lost than agreed. Backups from every replica of an "
            + "availability group count, so a backup taken on a secondary protects the database too.";
    static final String THROUGHPUT_WHY = "The latest full backup moved data much slower than this database's own "
            + "baseline for the same compression algorithm and target: a slow share, a saturated link, a QAT fallback "
            + "or storage trouble, and a longer window tonight.";

    private static final Set<String> FULL = Set.of("D", "F", "P");
    private static final Set<String> FULL_OR_DIFF = Set.of("D", "F", "P", "I", "G", "Q");

    private BackupRules() {
    }

    static List<Alert> missing(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.Missing cfg = rules.backupMissing();
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
                String type = b.type();
                if (FULL.contains(type)) {
                    full = newer(full, b);
                }
                if (FULL_OR_DIFF.contains(type)) {
                    fullOrDiff = newer(fullOrDiff, b);
                }
                if ("L".equals(type)) {
                    log = newer(log, b);
                }
            }
            check(fleet, rules, db, "full", full, Duration.ofHours(cfg.fullMaxAgeHours()), out);
            check(fleet, rules, db, "full or differential", fullOrDiff,
                    Duration.ofHours(cfg.fullOrDifferentialMaxAgeHours()), out);
            boolean logged = db.recoveryModel() != null && !"SIMPLE".equalsIgnoreCase(db.recoveryModel());
            if (logged && !"master".equalsIgnoreCase(db.name())) {
                check(fleet, rules, db, "log", log, Duration.ofMinutes(cfg.logMaxAgeMinutes()), out);
            }
        }
        return out;
    }

    /** The newer of two by finish, the first of equals (as {@code Stream.max}). */
    private static DatabaseBackup newer(DatabaseBackup newest, DatabaseBackup b) {
        return newest == null || b.finishedAt().isAfter(newest.finishedAt()) ? b : newest;
    }

    private static void check(FleetAnalysis fleet, RulesConfig rules, MergedDatabase db, String kind, DatabaseBackup latest,
                              Duration maxAge, List<Alert> out) {
        Optional<DatabaseBackup> newest = Optional.ofNullable(latest);
        Duration age = newest.map(b -> Duration.between(b.finishedAt(), fleet.now())).orElse(null);
        if (age != null && age.compareTo(maxAge) <= 0) {
            return;
        }
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("Objective", "a " + kind + " backup at least every " + human(maxAge)));
        String summary;
        if (newest.isEmpty()) {
            summary = "No " + kind + " backup of " + db.name() + " in the last "
                    + fleet.config().windows().lookbackDays() + " days";
        } else {
            DatabaseBackup b = newest.get();
            summary = "Newest " + kind + " backup of " + db.name() + " is " + human(age) + " old";
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

    static List<Alert> throughputDrop(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.ThroughputDrop cfg = rules.backupThroughputDrop();
        List<Alert> out = new ArrayList<>();
        for (MergedDatabase db : fleet.databases().values()) {
            // a snapshot backup's size is an estimate: no throughput to compare
            // every database every minute: one pass for the latest full (by finish, the last of equals, as a
            // stable sort has it), then its algorithm and target's fulls in finish order
            DatabaseBackup latest = null;
            for (DatabaseBackup b : db.backups()) {
                if (baselineFull(b, cfg) && (latest == null || !b.finishedAt().isBefore(latest.finishedAt()))) {
                    latest = b;
                }
            }
            if (latest == null) {
                continue;
            }
            List<DatabaseBackup> same = new ArrayList<>();
            for (DatabaseBackup b : db.backups()) {
                if (baselineFull(b, cfg) && samePath(b, latest)) {
                    same.add(b);
                }
            }
            same.sort(Comparator.comparing(DatabaseBackup::finishedAt));
            List<DatabaseBackup> baseline = same.subList(Math.max(0, same.size() - 1 - cfg.baselineBackups()), same.size() - 1);
            if (baseline.size() < cfg.minBaselineBackups()) {
                continue;
            }
            double median = TheilSen.median(baseline.stream().mapToDouble(DatabaseBackup::throughputMbps).toArray());
            double now = latest.throughputMbps();
            if (now >= median * (1 - cfg.dropPercent() / 100.0)) {
                continue;
            }
            double drop = (1 - now / median) * 100;
            List<Fact> facts = List.of(
                    new Fact("Latest full", Fmt.one(now) + " MB/s (" + Fmt.bytes(latest.sizeBytes()) + " in "
                            + Fmt.minutes(latest.durationSeconds() / 60.0) + ", finished "
                            + latest.finishedAt().atOffset(ZoneOffset.UTC) + " on " + latest.instance() + ")"),
                    new Fact("Baseline", Fmt.one(median) + " MB/s, median of the previous " + baseline.size() + " fulls"),
                    new Fact("Drop", Fmt.one(drop) + " % (threshold " + Fmt.one(cfg.dropPercent()) + " %)"),
                    new Fact("Algorithm and target", path(latest).replace('|', ' ') + ""));
            List<Fact> series = same.stream().skip(Math.max(0, same.size() - 14))
                    .map(b -> new Fact(b.finishedAt().atOffset(ZoneOffset.UTC).toLocalDate().toString(), Fmt.one(b.throughputMbps()) + " MB/s"))
                    .toList();
            out.add(new Alert("backup-throughput-drop", cfg.severity(), db.host(), db.instance(), db.name(), path(latest),
                    "Full backup of " + db.name() + " ran at " + Fmt.one(now) + " MB/s, " + Fmt.one(drop)
                            + " % under its baseline of " + Fmt.one(median) + " MB/s",
                    THROUGHPUT_WHY, facts, series));
        }
        return out;
    }

    /** A full the throughput baseline compares: a snapshot backup's size is an estimate, a short one says little. */
    private static boolean baselineFull(DatabaseBackup b, RulesConfig.ThroughputDrop cfg) {
        return "D".equals(b.type()) && !b.snapshot() && b.durationSeconds() >= cfg.minDurationMinutes() * 60L;
    }

    /** {@code path(a).equals(path(b))} without building the two strings. */
    private static boolean samePath(DatabaseBackup a, DatabaseBackup b) {
        String algA = a.compressionAlgorithm() == null ? "uncompressed" : a.compressionAlgorithm();
        String algB = b.compressionAlgorithm() == null ? "uncompressed" : b.compressionAlgorithm();
        String targetA = a.target() == null ? "UNKNOWN" : a.target();
        String targetB = b.target() == null ? "UNKNOWN" : b.target();
        // a '|' inside an algorithm or target could make two different pairs one path: compare as path() does then
        if (algA.indexOf('|') >= 0 || algB.indexOf('|') >= 0) {
            return path(a).equals(path(b));
        }
        return algA.equals(algB) && targetA.equals(targetB);
    }

    /** The comparison class of a backup: its compression algorithm and its target kind. */
    private static String path(DatabaseBackup b) {
        String alg = b.compressionAlgorithm() == null ? "uncompressed" : b.compressionAlgorithm();
        return alg + "|" + (b.target() == null ? "UNKNOWN" : b.target());
    }
}
