package io.qatwatch.collector.analysis;

import io.qatwatch.collector.chain.ChainBackup;
import io.qatwatch.collector.chain.ChainLink;
import io.qatwatch.collector.chain.RestorePlan;
import io.qatwatch.collector.compression.Method;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How long the restore you would run now would take (issue 30, RTO): the restore plan's full, differential and log
 * backups, each part's bytes at this host's measured restore speed for its algorithm and target
 * ({@link RestoreSpeeds}), else at the host's backup speed for them, and the total. Bytes over speed only: a log's redo
 * and the database's recovery take what they take on top. Pure.
 *
 * @param bytes     bytes to read: every backup of the plan as written (compressed when compressed)
 * @param dataBytes their {@code backup_size}: what the speeds are measured in
 * @param minutes   the estimate; null when a part has no speed to go by
 * @param basis     {@link #RESTORE_SPEED} when every part is at measured restore speed, {@link #BACKUP_SPEED} when one
 *                  or more is at backup speed; null with {@code minutes}
 * @param parts     the full, the differential, the log backups (by algorithm and target), in restore order
 * @param summary   the estimate in one line, as alerts and the database page show it
 */
public record RestoreEstimate(long bytes, long dataBytes, Double minutes, String basis, List<Part> parts, String summary) {

    public static final String RESTORE_SPEED = "restore-speed";
    public static final String BACKUP_SPEED = "backup-speed";

    /** Backups shorter than this do not tell a backup speed (their time is mostly fixed cost). */
    static final Duration SHORTEST_TIMED = Duration.ofSeconds(1);

    /**
     * One part of the plan.
     *
     * @param kind          {@code FULL}, {@code DIFFERENTIAL} or {@code LOG}
     * @param backups       backups in it
     * @param algorithm     {@code NONE}, {@code MS_XPRESS}, {@code QAT_DEFLATE}, {@code ZSTD}; {@code UNKNOWN} when the
     *                      backups do not say
     * @param target        the backups' target kind ({@code LOCAL}, {@code UNC}, {@code URL}, ...)
     * @param mbps          the speed it is estimated at (MB/s of {@code backup_size}); null when none is known
     * @param basis         {@link #RESTORE_SPEED} or {@link #BACKUP_SPEED}; null with {@code mbps}
     * @param samples       the restores or backups that speed is the median of
     * @param anyTarget     the speed is of every target (none measured to this one)
     * @param restorableOn  QAT_DEFLATE parts: the hosts that could restore them now; null for other algorithms
     * @param restoreBurden QAT_DEFLATE parts: the same in words ("restorable on 2 of 5 probed hosts: ..."); else null
     */
    public record Part(String kind, int backups, long bytes, long dataBytes, String algorithm, String target, Double mbps,
                       String basis, Integer samples, boolean anyTarget, Double minutes, List<String> restorableOn,
                       String restoreBurden) {
    }

    /**
     * The estimate of {@code plan} restored on {@code host}: each backup at its own algorithm and target, as the plan's
     * backups carry them ({@link ChainBackup#algorithm()}; a link of logs has one algorithm).
     *
     * @param hostBackups the host's own backups of the lookback period (any database): its backup speeds
     * @param compression the fleet's compression (the restore burden of QAT_DEFLATE); null before the first evaluation
     */
    public static RestoreEstimate of(String host, RestorePlan plan, List<BackupRecord> hostBackups, RestoreSpeeds speeds,
                                     FleetCompression compression) {
        BackupSpeeds backupSpeeds = new BackupSpeeds(hostBackups);
        List<Piece> pieces = new ArrayList<>();
        pieces.add(piece("FULL", plan.full(), 1, plan.full().sizeBytes(), plan.full().dataBytes()));
        if (plan.differential() != null) {
            pieces.add(piece("DIFFERENTIAL", plan.differential(), 1, plan.differential().sizeBytes(),
                    plan.differential().dataBytes()));
        }
        Map<String, Piece> logs = new LinkedHashMap<>();
        for (ChainLink l : plan.logs()) {
            Piece p = piece("LOG", l.last(), l.logs(), l.bytes(), l.dataBytes());
            logs.merge(p.algorithm + '\n' + p.target, p, Piece::plus);
        }
        pieces.addAll(logs.values());

        List<Part> parts = new ArrayList<>();
        long bytes = 0;
        long data = 0;
        double minutes = 0;
        boolean known = true;
        boolean measured = true;
        for (Piece p : pieces) {
            Speed s = speed(host, p.kind, p.algorithm, p.target, speeds, backupSpeeds);
            Double m = s == null ? null : round(p.dataBytes / 1_048_576.0 / s.mbps / 60, 1);
            boolean qat = Method.QAT_DEFLATE.equals(p.algorithm) && compression != null;
            parts.add(new Part(p.kind, p.backups, p.bytes, p.dataBytes, p.algorithm, p.target,
                    s == null ? null : round(s.mbps, 2), s == null ? null : s.basis, s == null ? null : s.samples,
                    s != null && s.anyTarget, m, qat ? compression.restoreReadyHosts() : null,
                    qat ? compression.restoreBurden() : null));
            bytes += p.bytes;
            data += p.dataBytes;
            if (m == null) {
                known = false;
            } else {
                minutes += p.dataBytes / 1_048_576.0 / s.mbps / 60;
                measured &= RESTORE_SPEED.equals(s.basis);
            }
        }
        Double total = known ? round(minutes, 1) : null;
        String basis = !known ? null : measured ? RESTORE_SPEED : BACKUP_SPEED;
        return new RestoreEstimate(bytes, data, total, basis, List.copyOf(parts), summary(parts, total, basis));
    }

    /** "full 100.0 GiB QAT_DEFLATE from UNC: 5.0 min at 341.33 MB/s (restore speed) + 4 log backups ...; 5.2 min in all". */
    static String summary(List<Part> parts, Double minutes, String basis) {
        List<String> out = new ArrayList<>();
        for (Part p : parts) {
            String what = switch (p.kind()) {
                case "FULL" -> "full";
                case "DIFFERENTIAL" -> "differential";
                default -> p.backups() + (p.backups() == 1 ? " log backup" : " log backups");
            };
            out.add(what + " " + gib(p.dataBytes()) + " " + p.algorithm() + " from " + p.target() + ": "
                    + (p.minutes() == null ? "no restore or backup speed known"
                    : p.minutes() + " min at " + p.mbps() + " MB/s (" + words(p.basis())
                    + (p.anyTarget() ? ", any target" : "") + ")"));
        }
        return String.join(" + ", out) + "; " + (minutes == null ? "not estimated" : minutes + " min in all ("
                + basis + ")");
    }

    /** {@code restore-speed} as a sentence says it. */
    static String words(String basis) {
        return RESTORE_SPEED.equals(basis) ? "measured restore speed" : "backup speed, no restore measured";
    }

    /** Bytes as GiB with one decimal: "100.0 GiB". */
    public static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / 1_073_741_824.0);
    }

    /** Backups of one kind, algorithm and target. */
    private record Piece(String kind, int backups, long bytes, long dataBytes, String algorithm, String target) {

        Piece plus(Piece other) {
            return new Piece(kind, backups + other.backups, bytes + other.bytes, dataBytes + other.dataBytes, algorithm, target);
        }
    }

    /** {@code n} backups like {@code b}: {@code bytes} written, {@code dataBytes} of data, its algorithm and target. */
    private static Piece piece(String kind, ChainBackup b, int n, long bytes, long dataBytes) {
        return new Piece(kind, n, bytes, dataBytes, b.algorithm() == null ? "UNKNOWN" : b.algorithm(),
                RestoreSpeeds.target(b.target()));
    }

    private record Speed(double mbps, String basis, int samples, boolean anyTarget) {
    }

    /**
     * This host's restore speed for the algorithm and target, then for the algorithm; else its backup speed the same way,
     * of backups of the part's class (log backups, or fulls and differentials) first.
     */
    private static Speed speed(String host, String kind, String algorithm, String target, RestoreSpeeds speeds,
                               BackupSpeeds backups) {
        Optional<RestoreSpeeds.Speed> r = speeds.of(host, algorithm, target);
        if (r.isPresent()) {
            return new Speed(r.get().medianMbps(), RESTORE_SPEED, r.get().restores(), false);
        }
        r = speeds.of(host, algorithm, null);
        if (r.isPresent()) {
            return new Speed(r.get().medianMbps(), RESTORE_SPEED, r.get().restores(), true);
        }
        String mine = "LOG".equals(kind) ? "L" : "D";
        for (String[] at : new String[][] {{target, mine}, {"*", mine}, {target, "*"}, {"*", "*"}}) {
            List<Double> v = backups.samples.get(algorithm + '\n' + at[0] + '\n' + at[1]);
            if (v != null) {
                return new Speed(RestoreSpeeds.median(v), BACKUP_SPEED, v.size(), at[0].equals("*"));
            }
        }
        return null;
    }

    /**
     * A host's backup speeds: MB/s of {@code backup_size} per algorithm, target (or {@code *}) and class ({@code L} log
     * backups, {@code D} fulls and differentials, {@code *} both).
     */
    private static final class BackupSpeeds {
        private final Map<String, List<Double>> samples = new HashMap<>();

        BackupSpeeds(List<BackupRecord> backups) {
            for (BackupRecord b : backups) {
                if (b.startedAt() == null || b.finishedAt() == null || b.backupSizeBytes() <= 0 || b.type() == null) {
                    continue;
                }
                long millis = Duration.between(b.startedAt(), b.finishedAt()).toMillis();
                if (millis < SHORTEST_TIMED.toMillis()) {
                    continue;
                }
                double mbps = b.backupSizeBytes() / 1_048_576.0 / (millis / 1000.0);
                String algorithm = RestoreSpeeds.algorithm(b);
                String kind = b.type().equals("L") ? "L" : "D";
                for (String target : new String[] {RestoreSpeeds.target(b.target()), "*"}) {
                    for (String k : new String[] {kind, "*"}) {
                        samples.computeIfAbsent(algorithm + '\n' + target + '\n' + k, x -> new ArrayList<>()).add(mbps);
                    }
                }
            }
        }
    }

    private static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
