package io.qatwatch.collector.compression;

import io.qatwatch.collector.compression.CompressionSamples.Key;
import io.qatwatch.collector.compression.CompressionSamples.Measured;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Groups an instance's samples like with like and judges each method against the baseline. Pure. */
public final class Comparisons {

    /** Best first: what a row's verdict reports when it compared several methods. */
    private static final List<Verdict> RANK = List.of(Verdict.FASTER_AND_CHEAPER, Verdict.FASTER_AND_SMALLER, Verdict.FASTER,
            Verdict.FASTER_BUT_COSTLIER, Verdict.CHEAPER, Verdict.SMALLER, Verdict.NO_GAIN, Verdict.COSTLIER, Verdict.SLOWER,
            Verdict.NOT_ENOUGH_DATA);

    /**
     * A row's grouping, with its database's name lower-cased once: the sort compares it and the TDE states are keyed by
     * it, so it is not lower-cased again at every comparison of the sort (a restart compares every instance's rows).
     */
    private record Row(String database, String lowerDatabase, BackupKind kind, String target, boolean backupEncrypted) {

        Row(Key k) {
            this(k.database(), k.database().toLowerCase(Locale.ROOT), k.kind(), k.target(), k.backupEncrypted());
        }
    }

    private static final Comparator<Row> ORDER = Comparator.comparing(Row::lowerDatabase).thenComparing(Row::database)
            .thenComparing(Row::kind).thenComparing(Row::target).thenComparing(Row::backupEncrypted);

    private Comparisons() {
    }

    /**
     * One comparison per database, kind, target and backup encryption of {@code series} (each of at least one backup),
     * in that order: from each series' statistics, without its backups.
     *
     * @param tde each database's TDE state by lower-case name; absent: unknown
     */
    static List<Comparison> of(List<Measured> series, Map<String, Boolean> tde, VerdictThresholds t) {
        Map<Row, List<Measured>> rows = new TreeMap<>(ORDER);
        for (Measured m : series) {
            rows.computeIfAbsent(new Row(m.key()), x -> new ArrayList<>()).add(m);
        }
        List<Comparison> out = new ArrayList<>(rows.size());
        rows.forEach((row, members) -> out.add(compare(row, members, tde.get(row.lowerDatabase()), t)));
        return out;
    }

    private static Comparison compare(Row row, List<Measured> members, Boolean tde, VerdictThresholds t) {
        List<AlgorithmStats> stats = new ArrayList<>();
        Method current = null;
        long currentMillis = 0;
        for (Measured m : members) {
            Method method = m.key().method();
            stats.add(m.stats());
            // the newest backup of the row not COPY_ONLY decides; a tie goes to the later label
            long finished = m.newestJobFinish();
            boolean newer = current == null || finished > currentMillis || finished == currentMillis
                    && method.label().compareTo(current.label()) > 0;
            if (finished != Long.MIN_VALUE && newer) {
                current = method;
                currentMillis = finished;
            }
        }
        Instant currentAt = current == null ? null : Instant.ofEpochMilli(currentMillis);
        stats.sort(Comparator.comparing(s -> s.method().label()));
        AlgorithmStats baseline = baseline(stats);
        List<Comparison.Entry> entries = new ArrayList<>();
        entries.add(new Comparison.Entry(baseline, null));
        Comparison.Entry best = null;
        for (AlgorithmStats s : stats) {
            if (s == baseline) {
                continue;
            }
            Comparison.Entry e = new Comparison.Entry(s, Judgement.of(baseline, s, t));
            entries.add(e);
            if (best == null || better(e.judgement(), best.judgement())) {
                best = e;
            }
        }
        if (best == null) {
            return new Comparison(row.database(), row.kind(), row.target(), tde, row.backupEncrypted(), entries,
                    baseline.method(), null, Verdict.SINGLE_ALGORITHM, null, null, null, current, currentAt);
        }
        Judgement j = best.judgement();
        return new Comparison(row.database(), row.kind(), row.target(), tde, row.backupEncrypted(), entries,
                baseline.method(), best.stats().method(), j.verdict(), j.speedGainPercent(), j.sizeGainPercent(),
                j.cpuGainPercent(), current, currentAt);
    }

    /** MS_XPRESS (the default algorithm) when it was used, else the method with the most backups; ties by name. */
    static AlgorithmStats baseline(List<AlgorithmStats> stats) {
        AlgorithmStats pick = null;
        for (AlgorithmStats s : stats) {
            if (Method.MS_XPRESS.equals(s.method().algorithm()) && (pick == null || s.backups() > pick.backups())) {
                pick = s;
            }
        }
        if (pick != null) {
            return pick;
        }
        for (AlgorithmStats s : stats) {
            if (pick == null || s.backups() > pick.backups()) {
                pick = s;
            }
        }
        return pick;
    }

    private static boolean better(Judgement a, Judgement b) {
        int ra = RANK.indexOf(a.verdict());
        int rb = RANK.indexOf(b.verdict());
        return ra != rb ? ra < rb : a.speedGainPercent() > b.speedGainPercent();
    }
}
