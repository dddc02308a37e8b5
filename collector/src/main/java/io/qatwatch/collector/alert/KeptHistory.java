package io.qatwatch.collector.alert;

import io.qatwatch.collector.alert.FleetAnalysis.History;
import io.qatwatch.collector.window.BusinessCalendar.Night;
import io.qatwatch.collector.window.CreepAnalysis;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.collector.window.SpillForecast;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One instance's {@link History} kept up to date in memory, so that neither a night finishing, nor a night
 * leaving the lookback period, nor a backup that counts for tonight's window needs the instance's backups
 * read again. It holds the backups of the open night (the one whose business start is still ahead), and of
 * each finished night its {@link NightlyWindow#summary() summary}, the fulls that classify it (full or
 * differential night) and, for the nights a creep fit reads (the latest {@code nights} of each kind), each
 * backup's duration and size for the fit's drivers. When the kinds of the finished nights change so that a
 * fit would need a night whose backups are gone, {@link #advance} says so and the caller rebuilds the
 * instance from the store. Not thread-safe.
 */
final class KeptHistory {

    private final String scope;
    private final NightlyWindows.Nights nights;
    private final AlertsConfig config;
    private final Set<String> secondaries;
    private final List<Kept> finished = new ArrayList<>();
    private final List<DatabaseBackup> open = new ArrayList<>();
    /** Each database's tail (lower-case name) and the morning of the night it comes from. */
    private final Map<String, Tail> tails = new HashMap<>();
    /** The creep drivers' series: database name, guid and backup type, numbered per instance. */
    private final List<DatabaseBackup> series = new ArrayList<>();
    private final Map<List<String>, Integer> seriesIndex = new HashMap<>();
    private Map<NightKind, CreepAnalysis.Fit> fits;
    private final Instant futureStart;
    private History history;
    private Instant validUntil;
    private boolean dirty;

    private record Tail(long seconds, java.time.LocalDate morning) {
    }

    /** A finished night: its summary, its fulls (database key and largest size), and the drivers' points or null. */
    private static final class Kept {
        NightlyWindow window;
        final String[] fullKeys;
        final long[] fullSizes;
        int[] pointSeries;
        long[] pointDurations;
        long[] pointSizes;

        Kept(NightlyWindow window, String[] fullKeys, long[] fullSizes) {
            this.window = window;
            this.fullKeys = fullKeys;
            this.fullSizes = fullSizes;
        }
    }

    /**
     * The kept form of {@code built}, the history {@link FleetAnalysis#history} built as of {@code now};
     * {@code futureStart} is the earliest start of a backup that starts after {@code now}.
     */
    KeptHistory(String scope, NightlyWindows.Nights nights, Set<String> secondaries, AlertsConfig config, History built,
                Instant futureStart, Instant now) {
        this.scope = scope;
        this.nights = nights;
        this.config = config;
        this.secondaries = secondaries;
        for (NightlyWindow w : built.windows()) {
            if (w.businessStart().isAfter(now)) {
                open.addAll(w.backups());
            } else {
                finish(w);
            }
        }
        this.futureStart = futureStart;
        this.fits = built.fits();
        keepPointsOfFittedNightsOnly();
        this.history = built.summary(now);
        this.validUntil = built.validUntil();
    }

    /** The history as of the last {@link #advance}. */
    History history() {
        return history;
    }

    /**
     * Takes a backup that counts for the windows and started by {@code now}: true when it belongs to the
     * open night (or to a night not yet seen that has not finished), false when it belongs to a finished
     * night (the caller rebuilds the instance). A backup outside every night, or of a night already out of
     * the lookback period, changes nothing.
     */
    boolean add(DatabaseBackup b, Instant now) {
        Night night = nights.containing(b.startedAt());
        if (night == null || !night.businessEnd().isAfter(now.minus(lookback()))) {
            return true;
        }
        if (!night.businessStart().isAfter(now)) {
            return false;
        }
        open.add(b);
        dirty = true;
        return true;
    }

    /**
     * Brings the history to {@code now}: nights that finished join the finished ones, nights that left the
     * lookback period go, kinds and fits are worked out again. False when it cannot be done from memory.
     */
    boolean advance(Instant now) {
        if (!dirty && now.isBefore(validUntil)) {
            return true;
        }
        if (!now.isBefore(futureStart)) {
            return false;
        }
        Instant from = now.minus(lookback());
        List<NightlyWindow> openWindows = NightlyWindows.build(scope, open, nights, config.windows(), secondaries);
        boolean changed = false;
        List<DatabaseBackup> stillOpen = new ArrayList<>();
        for (NightlyWindow w : openWindows) {
            if (w.businessStart().isAfter(now)) {
                stillOpen.addAll(w.backups());
            }
        }
        while (!finished.isEmpty() && !finished.get(0).window.businessEnd().isAfter(from)) {
            Kept gone = finished.remove(0);
            tails.values().removeIf(t -> t.morning().equals(gone.window.morning()));
            changed = true;
        }
        Map<String, Long> weight = new HashMap<>();
        finished.forEach(k -> weigh(weight, k.fullKeys, k.fullSizes));
        List<Kept> openKept = new ArrayList<>();
        for (NightlyWindow w : openWindows) {
            Kept k = fulls(w);
            weigh(weight, k.fullKeys, k.fullSizes);
            openKept.add(k);
        }
        long total = 0;
        for (long v : weight.values()) {
            total += v;
        }
        for (Kept k : finished) {
            NightKind kind = kindOf(k, weight, total);
            if (kind != k.window.kind()) {
                k.window = withKind(k.window, kind);
                changed = true;
            }
        }
        List<NightlyWindow> windows = new ArrayList<>();
        finished.forEach(k -> windows.add(k.window));
        for (int n = 0; n < openWindows.size(); n++) {
            NightlyWindow w = withKind(openWindows.get(n), kindOf(openKept.get(n), weight, total));
            if (w.businessStart().isAfter(now)) {
                windows.add(w);
            } else {
                finish(w);
                windows.add(finished.get(finished.size() - 1).window);
                changed = true;
            }
        }
        open.clear();
        open.addAll(stillOpen);
        if (changed) {
            List<NightlyWindow> withPoints = new ArrayList<>(finished.size());
            int[] seen = new int[NightKind.values().length];
            int limit = config.rules().backupWindowCreep().settings().nights();
            for (int n = finished.size() - 1; n >= 0; n--) {
                Kept k = finished.get(n);
                if (seen[k.window.kind().ordinal()]++ < limit && k.pointSeries == null) {
                    return false;
                }
            }
            for (Kept k : finished) {
                withPoints.add(k.pointSeries == null ? k.window : materialise(k));
            }
            fits = CreepAnalysis.fits(withPoints, nights.calendar(), config.rules().backupWindowCreep().settings());
            keepPointsOfFittedNightsOnly();
        }
        Map<String, Long> tailSeconds = new HashMap<>();
        tails.forEach((db, t) -> tailSeconds.put(db, t.seconds()));
        Instant until = futureStart;
        for (NightlyWindow w : windows) {
            if (w.businessStart().isAfter(now) && w.businessStart().isBefore(until)) {
                until = w.businessStart();
            }
        }
        if (!windows.isEmpty()) {
            Instant leaves = windows.get(0).businessEnd().plus(lookback());
            until = leaves.isBefore(until) ? leaves : until;
        }
        history = new History(List.copyOf(windows), fits, tailSeconds, until).summary(now);
        validUntil = until;
        dirty = false;
        return true;
    }

    private Duration lookback() {
        return Duration.ofDays(config.windows().lookbackDays());
    }

    /** A night just finished (its window has every backup): kept as a summary with its fulls, points and tails. */
    private void finish(NightlyWindow w) {
        Kept k = fulls(w);
        k.window = w.summary();
        int n = w.backups().size();
        k.pointSeries = new int[n];
        k.pointDurations = new long[n];
        k.pointSizes = new long[n];
        for (int p = 0; p < n; p++) {
            DatabaseBackup b = w.backups().get(p);
            List<String> id = java.util.Arrays.asList(b.database(), b.databaseGuid(), b.type());
            Integer s = seriesIndex.get(id);
            if (s == null) {
                s = series.size();
                seriesIndex.put(id, s);
                series.add(new DatabaseBackup(scope, b.database(), b.databaseGuid(), b.type(), false, Instant.EPOCH,
                        Instant.EPOCH, 0, null, null, null));
            }
            k.pointSeries[p] = s;
            k.pointDurations[p] = b.durationSeconds();
            k.pointSizes[p] = b.sizeBytes();
        }
        finished.add(k);
        SpillForecast.tails(List.of(w)).forEach((db, t) -> tails.put(db, new Tail(t, w.morning())));
    }

    /** The night's fulls: each database fully backed up and its largest full that night. */
    private static Kept fulls(NightlyWindow w) {
        Map<String, Long> largest = new HashMap<>();
        for (DatabaseBackup b : w.backups()) {
            if (b.isFull()) {
                largest.merge(b.databaseGuid() == null ? b.database() : b.databaseGuid(), b.sizeBytes(), Math::max);
            }
        }
        String[] keys = new String[largest.size()];
        long[] sizes = new long[largest.size()];
        int n = 0;
        for (Map.Entry<String, Long> e : largest.entrySet()) {
            keys[n] = e.getKey();
            sizes[n++] = e.getValue();
        }
        return new Kept(w, keys, sizes);
    }

    private static void weigh(Map<String, Long> weight, String[] keys, long[] sizes) {
        for (int n = 0; n < keys.length; n++) {
            weight.merge(keys[n], sizes[n], Math::max);
        }
    }

    /** As {@code NightlyWindows.classify}: full when the night's fulls hold at least half the full-backup bytes. */
    private static NightKind kindOf(Kept k, Map<String, Long> weight, long total) {
        long mine = 0;
        for (String key : k.fullKeys) {
            mine += weight.get(key);
        }
        double share = total == 0 ? 0 : mine / (double) total;
        return share >= 0.5 ? NightKind.FULL : NightKind.DIFFERENTIAL;
    }

    private static NightlyWindow withKind(NightlyWindow w, NightKind kind) {
        return kind == w.kind() ? w : new NightlyWindow(w.scope(), w.morning(), kind, w.businessEnd(), w.businessStart(),
                w.firstStart(), w.lastFinish(), w.marginSeconds(), w.backups(), w.backupCount());
    }

    /** The night with a stand-in backup per point: what the creep drivers read (name, guid, type, duration, size). */
    private NightlyWindow materialise(Kept k) {
        List<DatabaseBackup> backups = new ArrayList<>(k.pointSeries.length);
        for (int p = 0; p < k.pointSeries.length; p++) {
            DatabaseBackup s = series.get(k.pointSeries[p]);
            backups.add(new DatabaseBackup(s.instance(), s.database(), s.databaseGuid(), s.type(), false, Instant.EPOCH,
                    Instant.EPOCH.plusSeconds(k.pointDurations[p]), k.pointSizes[p], null, null, null));
        }
        NightlyWindow w = k.window;
        return new NightlyWindow(w.scope(), w.morning(), w.kind(), w.businessEnd(), w.businessStart(), w.firstStart(),
                w.lastFinish(), w.marginSeconds(), backups, w.backupCount());
    }

    /** Drops the drivers' points of the nights no fit reads: the latest {@code nights} of each kind keep theirs. */
    private void keepPointsOfFittedNightsOnly() {
        int[] seen = new int[NightKind.values().length];
        int limit = config.rules().backupWindowCreep().settings().nights();
        for (int n = finished.size() - 1; n >= 0; n--) {
            Kept k = finished.get(n);
            if (seen[k.window.kind().ordinal()]++ >= limit) {
                k.pointSeries = null;
                k.pointDurations = null;
                k.pointSizes = null;
            }
        }
    }
}
