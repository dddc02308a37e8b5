package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.protocol.SqlInstanceSnapshot.CommandLogEntry;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The algorithm an instance's backups are configured with: {@code sys.configurations}' default, and what the jobs'
 * own BACKUP commands name (Ola Hallengren's CommandLog), which wins for those databases. On SQL Server 2025 ZSTD can
 * only be named per command: {@code sp_configure 'backup compression algorithm', 3} fails with Msg 15129.
 */
final class JobCommands {

    private JobCommands() {
    }

    /** The algorithm (and level) the newest CommandLog backup command of each database since {@code since} names. */
    static Map<String, String> commandAlgorithms(InstanceState i, Instant since) {
        Map<String, CommandLogEntry> newest = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (CommandLogEntry e : i.jobs().commandLog()) {
            if (e.databaseName() == null || e.algorithm() == null || e.startedAt().isBefore(since)
                    || e.commandType() == null || !e.commandType().toUpperCase(Locale.ROOT).startsWith("BACKUP_DATABASE")) {
                continue;
            }
            newest.merge(e.databaseName(), e, (a, b) -> b.startedAt().isAfter(a.startedAt()) ? b : a);
        }
        Map<String, String> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        newest.forEach((db, e) -> out.put(db, e.algorithm().toUpperCase(Locale.ROOT)
                + (e.level() == null ? "" : " LEVEL = " + e.level().toUpperCase(Locale.ROOT))));
        return out;
    }

    /** {@code sys.configurations}' 'backup compression algorithm' in use, named; "unknown" when not read. */
    static String instanceDefault(InstanceState i) {
        return i.configuration().stream().filter(c -> "backup compression algorithm".equalsIgnoreCase(c.name()))
                .map(ConfigOption::valueInUse).findFirst().map(QatRules::algorithmName).orElse("unknown");
    }

    /**
     * What the jobs' own commands configure, for people, grouped by what they name ("MS_XPRESS for Billing; ZSTD
     * LEVEL = MEDIUM for SalesDW"); null when CommandLog names none since {@code since}.
     */
    static String commands(InstanceState i, Instant since) {
        Map<String, String> commands = commandAlgorithms(i, since);
        if (commands.isEmpty()) {
            return null;
        }
        Map<String, TreeSet<String>> byAlgorithm = new TreeMap<>();
        commands.forEach((db, alg) -> byAlgorithm.computeIfAbsent(alg, a -> new TreeSet<>(String.CASE_INSENSITIVE_ORDER)).add(db));
        List<String> parts = byAlgorithm.entrySet().stream().map(e -> e.getKey() + " for " + String.join(", ", e.getValue())).toList();
        StringBuilder s = new StringBuilder(String.join("; ", parts));
        if (byAlgorithm.keySet().stream().anyMatch(a -> a.startsWith("ZSTD"))) {
            s.append(" (ZSTD cannot be the instance default: sp_configure 'backup compression algorithm', 3 fails with "
                    + "Msg 15129; each BACKUP names it)");
        }
        return s.toString();
    }
}
