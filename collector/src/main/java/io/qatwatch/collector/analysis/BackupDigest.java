package io.qatwatch.collector.analysis;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Of an instance's backups, the few the alert rules read, so the alert stage need not hold them all: for
 * every database the newest full, full-or-differential, log and QAT_DEFLATE backup, the newest fulls to URL (the URL size ceiling's trend), the newest MS_XPRESS and
 * QAT_DEFLATE backup (configuration mismatch), one
 * backup per encrypting certificate and per database encrypted with TRIPLE_DES_3KEY, and every backup that
 * starts in the future. The fulls the throughput baseline compares are kept apart, as {@link BaselineFulls}, which
 * backup-throughput-drop reads instead. Any set between this digest and all the backups gives the rules the same answer,
 * as long as no backup crosses the lookback period's start or {@code now} (the stage rebuilds the instance
 * when one does: {@link FleetAnalysis.History#validUntil()}).
 */
public final class BackupDigest {

    /** Store order: start, then backup_set_id. */
    static final Comparator<BackupRecord> ORDER = Comparator.comparing(BackupRecord::startedAt)
            .thenComparingLong(BackupRecord::backupSetId);

    private static final Set<String> FULL = Set.of("D", "F", "P");
    private static final Set<String> FULL_OR_DIFF = Set.of("D", "F", "P", "I", "G", "Q");

    private BackupDigest() {
    }

    /**
     * The digest of {@code loaded} (in store order) as of {@code now}, in the same order; {@code loaded} may
     * itself be a digest with backups added since.
     */
    public static List<BackupRecord> of(List<BackupRecord> loaded, AnalysisConfig config, Instant now) {
        Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        int fullsKept = config.baselineFulls();
        Map<Key, BackupRecord> first = new HashMap<>();
        Map<Key, List<BackupRecord>> fulls = new HashMap<>();
        Map<String, String> lower = new HashMap<>();
        Set<BackupRecord> keep = Collections.newSetFromMap(new IdentityHashMap<>());
        for (BackupRecord b : loaded) {
            if (b.startedAt() == null || b.finishedAt() == null) {
                continue;
            }
            if (b.startedAt().isAfter(now)) {
                keep.add(b);
                continue;
            }
            String name = b.databaseName();
            String db = lower.computeIfAbsent(name, n -> n.toLowerCase(Locale.ROOT));
            String guid = b.databaseGuid();
            if (b.finishedAt().isAfter(from)) {
                if (FULL.contains(b.type())) {
                    newest(first, new Key("full", guid, db, null), b);
                }
                if (FULL_OR_DIFF.contains(b.type())) {
                    newest(first, new Key("diff", guid, db, null), b);
                }
                if ("L".equals(b.type())) {
                    newest(first, new Key("log", guid, db, null), b);
                }
                if ("QAT_DEFLATE".equalsIgnoreCase(b.compressionAlgorithm())) {
                    newest(first, new Key("qat", guid, db, null), b);
                }
                // the URL size ceiling's trend: the newest fulls to URL, however short
                if ("D".equals(b.type()) && !b.sizeIsEstimate() && "URL".equalsIgnoreCase(b.target())) {
                    fulls.computeIfAbsent(new Key("url", guid, db, null), k -> new ArrayList<>()).add(b);
                }
            }
            if (!"L".equals(b.type()) && !b.sizeIsEstimate() && b.compressionAlgorithm() != null) {
                newest(first, new Key("alg", b.compressionAlgorithm().toUpperCase(Locale.ROOT), name, null), b);
            }
            if (b.encryptorThumbprint() != null) {
                first.putIfAbsent(new Key("cert", b.encryptorThumbprint().toUpperCase(Locale.ROOT), name, null), b);
            }
            if ("TRIPLE_DES_3KEY".equalsIgnoreCase(b.keyAlgorithm())) {
                first.putIfAbsent(new Key("3des", null, name, null), b);
            }
        }
        keep.addAll(first.values());
        for (List<BackupRecord> runs : fulls.values()) {
            if (runs.size() <= fullsKept) {
                keep.addAll(runs);
                continue;
            }
            List<Instant> finishes = new ArrayList<>(runs.stream().map(BackupRecord::finishedAt).toList());
            finishes.sort(Comparator.reverseOrder());
            Instant cut = finishes.get(fullsKept - 1);
            runs.stream().filter(b -> !b.finishedAt().isBefore(cut)).forEach(keep::add);
        }
        List<BackupRecord> out = new ArrayList<>(keep.size());
        for (BackupRecord b : loaded) {
            if (keep.contains(b)) {
                out.add(b);
            }
        }
        return out;
    }

    /** What a kept backup stands for: a kind of evidence about one database (and algorithm or target). */
    private record Key(String kind, String qualifier, String database, String more) {
    }

    /** Keeps the newest by finish, the first of equals, as the rules' {@code max} does. */
    private static void newest(Map<Key, BackupRecord> first, Key key, BackupRecord b) {
        first.merge(key, b, (old, candidate) -> candidate.finishedAt().isAfter(old.finishedAt()) ? candidate : old);
    }

    /** {@code digest} with {@code added} in store order (a backup already there is not added twice). */
    static List<BackupRecord> with(List<BackupRecord> digest, List<BackupRecord> added) {
        List<BackupRecord> out = new ArrayList<>(digest.size() + added.size());
        out.addAll(digest);
        if (added.size() > 8) {
            Set<Long> ids = new HashSet<>();
            digest.forEach(b -> ids.add(b.backupSetId()));
            for (BackupRecord b : added) {
                if (ids.add(b.backupSetId())) {
                    out.add(b);
                }
            }
            out.sort(ORDER);
            return out;
        }
        // a minute brings an instance a backup or two: looked for and placed one by one, as a stable sort would
        for (int n = 1; n < out.size(); n++) {
            if (ORDER.compare(out.get(n - 1), out.get(n)) > 0) {
                out.sort(ORDER);
                break;
            }
        }
        for (BackupRecord b : added) {
            if (!holds(out, b.backupSetId())) {
                int at = out.size();
                while (at > 0 && ORDER.compare(out.get(at - 1), b) > 0) {
                    at--;
                }
                out.add(at, b);
            }
        }
        return out;
    }

    private static boolean holds(List<BackupRecord> backups, long backupSetId) {
        for (BackupRecord b : backups) {
            if (b.backupSetId() == backupSetId) {
                return true;
            }
        }
        return false;
    }
}
