package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.History;
import io.qatwatch.collector.compression.PackedRows;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.collector.window.BusinessCalendar.Night;
import io.qatwatch.collector.window.CreepAnalysis;
import io.qatwatch.collector.window.CreepSettings;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.collector.window.SpillForecast;
import io.qatwatch.collector.window.TheilSen;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

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

    private static final String[] NO_KEYS = new String[0];
    private static final NightKind[] NIGHT_KINDS = NightKind.values();
    private static final long[] NO_SIZES = new long[0];

    private final String scope;
    private final NightlyWindows.Nights nights;
    private final AnalysisConfig config;
    private final List<Kept> finished = new ArrayList<>();
    private final List<DatabaseBackup> open = new ArrayList<>();
    /**
     * Each database's tail (lower-case name) and the morning of the night it comes from: replaced, never changed, so
     * that each history reads the tails it was given through a view instead of a map of its own.
     */
    private Map<String, Tail> tails = Map.of();
    /**
     * The creep drivers' series, numbered per instance: database name, key and backup type, three entries each. Grown
     * by a copy, never changed in place, so the fits' drivers read the array they were given without a copy of their own.
     */
    private String[] series = NO_KEYS;
    private Map<NightKind, CreepAnalysis.Fit> fits;
    private final Instant futureStart;
    private History history;
    private Instant validUntil;
    private boolean dirty;

    private record Tail(long seconds, LocalDate morning) {
    }

    /** The tails' seconds by database, read through: what {@link History#tails()} gives, without a map of its own. */
    private static final class TailSeconds extends AbstractMap<String, Long> {
        private final Map<String, Tail> tails;

        TailSeconds(Map<String, Tail> tails) {
            this.tails = tails;
        }

        @Override
        public Long get(Object database) {
            Tail t = tails.get(database);
            return t == null ? null : t.seconds();
        }

        @Override
        public Long getOrDefault(Object database, Long otherwise) {
            Tail t = tails.get(database);
            return t == null ? otherwise : t.seconds();
        }

        @Override
        public boolean containsKey(Object database) {
            return tails.containsKey(database);
        }

        @Override
        public int size() {
            return tails.size();
        }

        @Override
        public Set<Map.Entry<String, Long>> entrySet() {
            Set<Map.Entry<String, Long>> out = new HashSet<>();
            tails.forEach((db, t) -> out.add(Map.entry(db, t.seconds())));
            return Collections.unmodifiableSet(out);
        }
    }

    /** A finished night: its summary, its fulls (database key and largest size), and the drivers' points or null. */
    private static final class Kept {
        NightlyWindow window;
        final String[] fullKeys;
        final long[] fullSizes;
        /** Its backups' series, durations and sizes; null when no fit reads the night. */
        Points points;

        Kept(NightlyWindow window, String[] fullKeys, long[] fullSizes) {
            this.window = window;
            this.fullKeys = fullKeys;
            this.fullSizes = fullSizes;
        }
    }

    /**
     * The kept form of {@code built}, the history {@link FleetAnalysis#history} built as of {@code now};
     * {@code futureStart} is the earliest start of a backup that starts after {@code now}. Its tails are keyed by the
     * names {@code canon} gives ({@link #shareNames}).
     */
    KeptHistory(String scope, NightlyWindows.Nights nights, AnalysisConfig config, History built,
                Instant futureStart, Instant now, UnaryOperator<String> canon) {
        this.scope = scope;
        this.nights = nights;
        this.config = config;
        for (NightlyWindow w : built.windows()) {
            if (w.businessStart().isAfter(now)) {
                open.addAll(w.backups());
            } else {
                finish(w);
            }
        }
        this.futureStart = futureStart;
        this.fits = new EnumMap<>(NightKind.class);
        fits.putAll(built.fits());
        keepPointsOfFittedNightsOnly();
        onKeptPoints(fits.keySet());
        List<NightlyWindow> openWindows = new ArrayList<>();
        built.windows().stream().filter(w -> w.businessStart().isAfter(now)).forEach(w -> openWindows.add(w.summary()));
        this.validUntil = built.validUntil();
        this.history = current(openWindows, validUntil);
        shareNames(canon);
    }

    private KeptHistory(String scope, NightlyWindows.Nights nights, AnalysisConfig config, Instant futureStart) {
        this.scope = scope;
        this.nights = nights;
        this.config = config;
        this.futureStart = futureStart;
    }

    /**
     * Writes what this keeps for the instance's persisted summary (issue 33): the finished nights with their fulls and
     * points, the open night's backups, the tails and series, and of each fit its line (fitting the nights again
     * was 4 % of a restart's evaluating thread); not the rest of the fits, which {@link #read} makes again from the
     * finished nights as {@link FleetAnalysis#history} does, nor the scope, calendar nights and configuration it shares.
     */
    void write(SummaryOutput out) {
        out.writeInstant(futureStart);
        out.writeInstant(validUntil);
        out.writeCount(series.length);
        for (String s : series) {
            out.writeString(s);
        }
        out.writeCount(finished.size());
        for (Kept k : finished) {
            writeWindow(out, k.window, scope, nights);
            out.writeCount(k.fullKeys.length);
            for (int n = 0; n < k.fullKeys.length; n++) {
                out.writeString(k.fullKeys[n]);
                out.writeLong(k.fullSizes[n]);
            }
            if (k.points == null) {
                out.writeCount(0);
            } else {
                k.points.write(out);
            }
        }
        out.writeCount(open.size());
        open.forEach(b -> writeBackup(out, b));
        out.writeCount(tails.size());
        // by name: an immutable map's order differs from one run to the next
        new TreeMap<>(tails).forEach((db, t) -> {
            out.writeString(db);
            out.writeLong(t.seconds());
            out.writeLong(t.morning().toEpochDay());
        });
        // each kind's fitted line: the fit itself (its nights, step, safety, drivers) is made again from the nights
        for (NightKind kind : NIGHT_KINDS) {
            CreepAnalysis.Fit fit = fits.get(kind);
            out.writeBoolean(fit != null);
            if (fit != null) {
                out.writeDouble(fit.line().slope());
                out.writeDouble(fit.line().intercept());
            }
        }
    }

    /**
     * What {@link #write} wrote, for the instance {@code scope} on {@code nights}: the fits made again from the finished
     * nights with the lines written, the history itself at the first {@link #advance} (which the caller makes before
     * reading it). Its tails are keyed by the names {@code in}'s strings go through, shared as {@link #shareNames} does.
     */
    static KeptHistory read(SummaryInput in, String scope, NightlyWindows.Nights nights, AnalysisConfig config) {
        KeptHistory h = new KeptHistory(scope, nights, config, in.readInstant());
        h.validUntil = in.readInstant();
        h.series = new String[in.readSize()];
        for (int n = 0; n < h.series.length; n++) {
            h.series[n] = in.readString();
        }
        // the latest night with fulls so far, as latestFullKeys() gives it, without looking back over the nights each time
        String[] latestFullKeys = NO_KEYS;
        for (int n = in.readSize(); n > 0; n--) {
            NightlyWindow w = readWindow(in, scope, nights);
            int fulls = in.readSize();
            String[] keys = fulls == 0 ? NO_KEYS : new String[fulls];
            long[] sizes = fulls == 0 ? NO_SIZES : new long[fulls];
            for (int f = 0; f < fulls; f++) {
                keys[f] = in.readString();
                sizes[f] = in.readLong();
            }
            if (fulls > 0) {
                latestFullKeys = Arrays.equals(keys, latestFullKeys) ? latestFullKeys : keys;
            }
            Kept k = new Kept(w, fulls == 0 ? NO_KEYS : latestFullKeys, sizes);
            k.points = Points.read(in);
            h.finished.add(k);
        }
        for (int n = in.readSize(); n > 0; n--) {
            h.open.add(readBackup(in));
        }
        Map<String, Tail> tails = new HashMap<>();
        for (int n = in.readSize(); n > 0; n--) {
            tails.put(in.readString(), new Tail(in.readLong(), LocalDate.ofEpochDay(in.readLong())));
        }
        h.tails = Map.copyOf(tails);
        List<NightlyWindow> windows = new ArrayList<>(h.finished.size());
        h.finished.forEach(k -> windows.add(k.window));
        h.fits = new EnumMap<>(NightKind.class);
        for (NightKind kind : NIGHT_KINDS) {
            if (!in.readBoolean()) {
                // none was fitted: too few nights of the kind, which the fit finds out at once
                CreepAnalysis.fit(windows, kind, nights.calendar(), config.creep()).ifPresent(f -> h.fits.put(kind, f));
                continue;
            }
            TheilSen line = new TheilSen(in.readDouble(), in.readDouble());
            h.fits.put(kind, CreepAnalysis.fitted(windows, kind, nights.calendar(), config.creep(), line)
                    .orElseThrow(() -> new IllegalArgumentException("summary body holds a creep fit of " + kind
                            + " nights over fewer nights than a fit needs")));
        }
        h.onKeptPoints(h.fits.keySet());
        h.history = h.current(List.of(), h.validUntil);
        // the open nights' summaries are not kept: the first advance works them out, as after a backup was added
        h.dirty = true;
        return h;
    }

    /**
     * A finished night of the instance {@code scope}: its kind, with a bit for a night of the instance itself (most) and
     * one for a night whose morning and business hours are {@code nights}' own (most: the calendar's), which are then
     * not written but found again from its business end.
     */
    private static void writeWindow(SummaryOutput out, NightlyWindow w, String scope, NightlyWindows.Nights nights) {
        boolean ours = w.scope().equals(scope);
        Night night = nights.containing(w.businessEnd());
        boolean calendars = night != null && night.businessEnd().equals(w.businessEnd())
                && night.businessStart().equals(w.businessStart()) && night.morning().equals(w.morning());
        out.writeCount((long) w.kind().ordinal() << 2 | (ours ? 2 : 0) | (calendars ? 1 : 0));
        if (!ours) {
            out.writeString(w.scope());
        }
        out.writeInstant(w.businessEnd());
        if (!calendars) {
            out.writeLong(w.morning().toEpochDay());
            out.writeInstant(w.businessStart());
        }
        out.writeInstant(w.firstStart());
        out.writeInstant(w.lastFinish());
        out.writeLong(w.marginSeconds());
        out.writeCount(w.backups().size());
        w.backups().forEach(b -> writeBackup(out, b));
        out.writeCount(w.backupCount());
    }

    /**
     * A finished night as {@link #writeWindow} wrote it for {@code scope}; its morning and business hours are the
     * calendar's night's own objects (as a night built from rows has them), not three more for every night of every
     * instance read back.
     */
    private static NightlyWindow readWindow(SummaryInput in, String scope, NightlyWindows.Nights nights) {
        long head = in.readCount();
        long kind = head >>> 2;
        if (kind >= NightKind.values().length) {
            throw new IllegalArgumentException("summary body holds night kind " + kind);
        }
        String windowScope = (head & 2) != 0 ? scope : in.readString();
        Instant businessEnd = in.readInstant();
        LocalDate morning;
        Instant businessStart;
        if ((head & 1) != 0) {
            Night night = nights.containing(businessEnd);
            if (night == null || !night.businessEnd().equals(businessEnd)) {
                throw new IllegalArgumentException("summary body holds a calendar's night its calendar does not have");
            }
            businessEnd = night.businessEnd();
            businessStart = night.businessStart();
            morning = night.morning();
        } else {
            morning = LocalDate.ofEpochDay(in.readLong());
            businessStart = in.readInstant();
        }
        Instant firstStart = in.readInstant();
        Instant lastFinish = in.readInstant();
        long margin = in.readLong();
        List<DatabaseBackup> backups = new ArrayList<>();
        for (int n = in.readSize(); n > 0; n--) {
            backups.add(readBackup(in));
        }
        return new NightlyWindow(windowScope, morning, NightKind.values()[(int) kind], businessEnd, businessStart, firstStart,
                lastFinish, margin, backups, in.readSize());
    }

    /** A backup as a summary holds it, in a kept night or the open one ({@link PackedDigest#write} too). */
    static void writeBackup(SummaryOutput out, DatabaseBackup b) {
        out.writeString(b.instance());
        out.writeString(b.database());
        out.writeString(b.databaseKey());
        out.writeString(b.type());
        out.writeBoolean(b.copyOnly());
        out.writeInstant(b.startedAt());
        out.writeInstant(b.finishedAt());
        out.writeLong(b.sizeBytes());
        out.writeNullableLong(b.compressedSizeBytes());
        out.writeString(b.compressionAlgorithm());
        out.writeString(b.target());
        out.writeBoolean(b.onSecondary());
        out.writeBoolean(b.snapshot());
    }

    /** What {@link #writeBackup} wrote. */
    static DatabaseBackup readBackup(SummaryInput in) {
        return new DatabaseBackup(in.readString(), in.readString(), in.readString(), in.readString(), in.readBoolean(),
                in.readInstant(), in.readInstant(), in.readLong(), in.readNullableLong(), in.readString(), in.readString(),
                in.readBoolean(), in.readBoolean());
    }

    /** The history of the kept nights (already summaries) and the open ones, as {@link History#summary} has it. */
    private History current(List<NightlyWindow> openSummaries, Instant until) {
        List<NightlyWindow> windows = new ArrayList<>(finished.size() + openSummaries.size());
        finished.forEach(k -> windows.add(k.window));
        windows.addAll(openSummaries);
        return new History(List.copyOf(windows), fits, new TailSeconds(tails), until);
    }

    /**
     * Keys the tails by the lower-case names {@code canon} gives (the fleet's shared strings, which the instance's
     * database identities key by too) instead of copies of their own. A later night's tail of a database keeps the key
     * it replaces; a database new to the tails (one the instance did not list: a listed one rebuilds the instance) has
     * its own until then.
     */
    private void shareNames(UnaryOperator<String> canon) {
        if (!tails.isEmpty()) {
            Map<String, Tail> shared = new HashMap<>();
            tails.forEach((db, t) -> shared.put(canon.apply(db), t));
            tails = Map.copyOf(shared);
            history = new History(history.windows(), history.fits(), new TailSeconds(tails), history.validUntil());
        }
    }

    /** The morning of the latest finished night kept, null when none: it moves when a night finishes. */
    LocalDate latestFinishedMorning() {
        return finished.isEmpty() ? null : finished.get(finished.size() - 1).window.morning();
    }

    /**
     * The open night's backup equal to {@code b}, else {@code b}: the digest holds the newest full or differential of
     * each database, most of them the open night's, and keeps the one object.
     */
    DatabaseBackup same(DatabaseBackup b) {
        for (DatabaseBackup o : open) {
            if (o.equals(b)) {
                return o;
            }
        }
        return b;
    }

    /** The open night's backups (not a copy): what a summary's digest names by their place. */
    List<DatabaseBackup> openBackups() {
        return Collections.unmodifiableList(open);
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
        List<NightlyWindow> openWindows = NightlyWindows.build(scope, open, nights, config.windows());
        Set<NightKind> changed = EnumSet.noneOf(NightKind.class);
        List<DatabaseBackup> stillOpen = new ArrayList<>();
        for (NightlyWindow w : openWindows) {
            if (w.businessStart().isAfter(now)) {
                stillOpen.addAll(w.backups());
            }
        }
        while (!finished.isEmpty() && !finished.get(0).window.businessEnd().isAfter(from)) {
            Kept gone = finished.remove(0);
            if (tails.values().stream().anyMatch(t -> t.morning().equals(gone.window.morning()))) {
                Map<String, Tail> left = new HashMap<>(tails);
                left.values().removeIf(t -> t.morning().equals(gone.window.morning()));
                tails = Map.copyOf(left);
            }
            if (gone.points != null) {
                changed.add(gone.window.kind());
            }
        }
        // each database's largest full in one long[] each: a map of boxed sizes boxed every full of every kept night
        Map<String, long[]> weight = new HashMap<>();
        finished.forEach(k -> weigh(weight, k.fullKeys, k.fullSizes));
        List<Kept> openKept = new ArrayList<>();
        for (NightlyWindow w : openWindows) {
            Kept k = fulls(w, NO_KEYS);
            weigh(weight, k.fullKeys, k.fullSizes);
            openKept.add(k);
        }
        long total = 0;
        for (long[] v : weight.values()) {
            total += v[0];
        }
        for (Kept k : finished) {
            NightKind kind = kindOf(k, weight, total);
            if (kind != k.window.kind()) {
                changed.add(kind);
                changed.add(k.window.kind());
                k.window = withKind(k.window, kind);
            }
        }
        List<NightlyWindow> openSummaries = new ArrayList<>();
        for (int n = 0; n < openWindows.size(); n++) {
            NightlyWindow w = withKind(openWindows.get(n), kindOf(openKept.get(n), weight, total));
            if (w.businessStart().isAfter(now)) {
                openSummaries.add(w.summary());
            } else {
                finish(w);
                changed.add(w.kind());
            }
        }
        open.clear();
        open.addAll(stillOpen);
        if (!changed.isEmpty() && !refit(changed)) {
            return false;
        }
        Instant until = futureStart;
        for (NightlyWindow w : openSummaries) {
            if (w.businessStart().isBefore(until)) {
                until = w.businessStart();
            }
        }
        NightlyWindow oldest = !finished.isEmpty() ? finished.get(0).window : openSummaries.isEmpty() ? null : openSummaries.get(0);
        if (oldest != null) {
            Instant leaves = oldest.businessEnd().plus(lookback());
            until = leaves.isBefore(until) ? leaves : until;
        }
        history = current(openSummaries, until);
        validUntil = until;
        dirty = false;
        return true;
    }

    /**
     * Fits again the kinds of night whose nights changed, from the kept points; false when a night a fit
     * reads has none kept (its kind changed after its backups were dropped).
     */
    private boolean refit(Set<NightKind> kinds) {
        CreepSettings settings = config.creep();
        int[] seen = new int[NightKind.values().length];
        List<NightlyWindow> comparable = new ArrayList<>(finished.size());
        for (int n = finished.size() - 1; n >= 0; n--) {
            Kept k = finished.get(n);
            if (!kinds.contains(k.window.kind()) || seen[k.window.kind().ordinal()]++ >= settings.nights()) {
                continue;
            }
            if (k.points == null) {
                return false;
            }
            comparable.add(k.window);
        }
        Collections.reverse(comparable);
        Map<NightKind, CreepAnalysis.Fit> out = new EnumMap<>(NightKind.class);
        for (NightKind kind : NightKind.values()) {
            if (kinds.contains(kind)) {
                CreepAnalysis.fit(comparable, kind, nights.calendar(), settings).ifPresent(f -> out.put(kind, f));
            } else if (fits.containsKey(kind)) {
                out.put(kind, fits.get(kind));
            }
        }
        fits = out;
        keepPointsOfFittedNightsOnly();
        onKeptPoints(kinds);
        return true;
    }

    /**
     * Gives the fits of {@code kinds} drivers worked out on demand from the kept points of the nights they fitted
     * (the latest {@code nights} finished nights of their kind), so that no fit holds a night's backups.
     */
    private void onKeptPoints(Set<NightKind> kinds) {
        int limit = config.creep().nights();
        String[] names = series;
        for (NightKind kind : kinds) {
            CreepAnalysis.Fit fit = fits.get(kind);
            if (fit == null) {
                continue;
            }
            List<Kept> fitted = new ArrayList<>();
            for (int n = finished.size() - 1; n >= 0 && fitted.size() < limit; n--) {
                if (finished.get(n).window.kind() == kind) {
                    fitted.add(finished.get(n));
                }
            }
            Collections.reverse(fitted);
            List<NightlyWindow> windows = new ArrayList<>(fitted.size());
            List<Points> points = new ArrayList<>(fitted.size());
            for (Kept k : fitted) {
                windows.add(k.window);
                points.add(k.points);
            }
            fits.put(kind, fit.withDrivers(() -> {
                List<NightlyWindow> nightsWithBackups = new ArrayList<>(windows.size());
                for (int n = 0; n < windows.size(); n++) {
                    nightsWithBackups.add(materialise(scope, names, windows.get(n), points.get(n)));
                }
                return CreepAnalysis.drivers(nightsWithBackups, windows.get(0).businessStart());
            }));
        }
    }

    private Duration lookback() {
        return Duration.ofDays(config.windows().lookbackDays());
    }

    /** A night just finished (its window has every backup): kept as a summary with its fulls, points and tails. */
    private void finish(NightlyWindow w) {
        Kept k = fulls(w, latestFullKeys());
        k.window = w.summary();
        int n = w.backups().size();
        long[] rows = new long[Points.WIDTH * n];
        for (int p = 0; p < n; p++) {
            DatabaseBackup b = w.backups().get(p);
            rows[Points.WIDTH * p] = seriesOf(b);
            rows[Points.WIDTH * p + 1] = Math.min(b.durationSeconds(), Integer.MAX_VALUE);
            rows[Points.WIDTH * p + 2] = b.sizeBytes();
        }
        k.points = new Points(rows);
        if (!finished.isEmpty()) {
            Kept before = finished.get(finished.size() - 1);
            before.window = before.window.withoutBackups();
        }
        finished.add(k);
        Map<String, Long> night = SpillForecast.tails(List.of(w));
        if (!night.isEmpty()) {
            Map<String, Tail> next = new HashMap<>(tails);
            // a database's key stays the one it had (a map keeps the key it holds when a value is put again)
            night.forEach((db, t) -> next.put(db, new Tail(t, w.morning())));
            tails = Map.copyOf(next);
        }
    }

    /** The number of the series of {@code b}'s database and type; a new one when it has none yet. */
    private int seriesOf(DatabaseBackup b) {
        for (int s = 0; s < series.length; s += 3) {
            if (Objects.equals(series[s], b.database()) && Objects.equals(series[s + 1], b.databaseKey())
                    && Objects.equals(series[s + 2], b.type())) {
                return s / 3;
            }
        }
        int s = series.length;
        series = Arrays.copyOf(series, s + 3);
        series[s] = b.database();
        series[s + 1] = b.databaseKey();
        series[s + 2] = b.type();
        return s / 3;
    }

    /** The databases of the latest finished night with fulls, none when no night had one. */
    private String[] latestFullKeys() {
        for (int n = finished.size() - 1; n >= 0; n--) {
            if (finished.get(n).fullKeys.length > 0) {
                return finished.get(n).fullKeys;
            }
        }
        return NO_KEYS;
    }

    /**
     * The night's fulls: each database fully backed up and its largest full that night; the databases are {@code same}
     * (the array itself) when they are the same in the same order, as one full night's are the next's.
     */
    private static Kept fulls(NightlyWindow w, String[] same) {
        Map<String, Long> largest = new HashMap<>();
        for (DatabaseBackup b : w.backups()) {
            if (b.isFull()) {
                // a snapshot (VSS) full counts as the night's full but weighs nothing: its size is an estimate
                largest.merge(b.databaseKey() == null ? b.database() : b.databaseKey(), b.snapshot() ? 0L : b.sizeBytes(),
                        Math::max);
            }
        }
        if (largest.isEmpty()) {
            return new Kept(w, NO_KEYS, NO_SIZES);
        }
        String[] keys = new String[largest.size()];
        long[] sizes = new long[largest.size()];
        int n = 0;
        for (Map.Entry<String, Long> e : largest.entrySet()) {
            keys[n] = e.getKey();
            sizes[n++] = e.getValue();
        }
        return new Kept(w, Arrays.equals(keys, same) ? same : keys, sizes);
    }

    private static void weigh(Map<String, long[]> weight, String[] keys, long[] sizes) {
        for (int n = 0; n < keys.length; n++) {
            long[] largest = weight.get(keys[n]);
            if (largest == null) {
                weight.put(keys[n], new long[] {sizes[n]});
            } else if (sizes[n] > largest[0]) {
                largest[0] = sizes[n];
            }
        }
    }

    /**
     * As {@code NightlyWindows.classify}: full when the night's fulls hold at least half the full-backup bytes (a snapshot
     * full weighing nothing), or, when no full has a measured size, when the night has a full.
     */
    private static NightKind kindOf(Kept k, Map<String, long[]> weight, long total) {
        long mine = 0;
        for (String key : k.fullKeys) {
            mine += weight.get(key)[0];
        }
        if (total == 0) {
            // no full of the scope has a measured size: a night with a full is FULL
            return k.fullKeys.length > 0 ? NightKind.FULL : NightKind.DIFFERENTIAL;
        }
        return mine / (double) total >= 0.5 ? NightKind.FULL : NightKind.DIFFERENTIAL;
    }

    private static NightlyWindow withKind(NightlyWindow w, NightKind kind) {
        return kind == w.kind() ? w : new NightlyWindow(w.scope(), w.morning(), kind, w.businessEnd(), w.businessStart(),
                w.firstStart(), w.lastFinish(), w.marginSeconds(), w.backups(), w.backupCount());
    }

    /** The night with a stand-in backup per point: what the creep drivers read (name, key, type, duration, size). */
    private static NightlyWindow materialise(String scope, String[] series, NightlyWindow w, Points points) {
        long[] rows = points.rows();
        int size = rows.length / Points.WIDTH;
        List<DatabaseBackup> backups = new ArrayList<>(size);
        for (int p = 0; p < size; p++) {
            int s = 3 * (int) rows[Points.WIDTH * p];
            backups.add(new DatabaseBackup(scope, series[s], series[s + 1], series[s + 2], false, Instant.EPOCH,
                    Instant.EPOCH.plusSeconds(rows[Points.WIDTH * p + 1]), rows[Points.WIDTH * p + 2], null, null, null,
                    false, false));
        }
        return new NightlyWindow(w.scope(), w.morning(), w.kind(), w.businessEnd(), w.businessStart(), w.firstStart(),
                w.lastFinish(), w.marginSeconds(), backups, w.backupCount());
    }

    /** Drops the drivers' points of the nights no fit reads: the latest {@code nights} of each kind keep theirs. */
    private void keepPointsOfFittedNightsOnly() {
        int[] seen = new int[NightKind.values().length];
        int limit = config.creep().nights();
        for (int n = finished.size() - 1; n >= 0; n--) {
            Kept k = finished.get(n);
            if (seen[k.window.kind().ordinal()]++ >= limit) {
                k.points = null;
            }
        }
    }

    /**
     * One finished night's backups as the creep drivers read them: each one's series, whole seconds (0 to
     * {@link Integer#MAX_VALUE}) and bytes, packed ({@link PackedRows}: the series as its change from the backup before,
     * the seconds and bytes as they are, each in the bits the night's largest needs); exactly the numbers given. A
     * persisted summary holds the packed bytes as they are, so a restart takes them back without unpacking them.
     */
    static final class Points {
        static final int WIDTH = 3;
        /** The series changes by one or two from backup to backup; seconds and sizes are each database's own. */
        private static final int PLAIN = 0b110;

        /** The backups' rows, packed; they count themselves. */
        private final byte[] packed;

        /** The backups' series, seconds and bytes, three numbers a backup. */
        Points(long[] rows) {
            this.packed = PackedRows.pack(rows, rows.length / WIDTH, WIDTH, 0, PLAIN);
        }

        private Points(byte[] packed) {
            this.packed = packed;
        }

        int size() {
            return PackedRows.rows(packed);
        }

        /** Every backup's series, seconds and bytes, three numbers a backup. */
        long[] rows() {
            long[] out = new long[WIDTH * size()];
            PackedRows.unpack(packed, WIDTH, 0, PLAIN, out);
            return out;
        }

        /** Writes them for a persisted summary (format 6): form 1 and the packed bytes as held. */
        void write(SummaryOutput out) {
            out.writeCount(1);
            out.writeBytes(packed);
        }

        /** What {@link #write} wrote (or a form of 0 for a night without points: null). */
        static Points read(SummaryInput in) {
            long form = in.readCount();
            if (form == 0) {
                return null;
            }
            if (form != 1) {
                throw new IllegalArgumentException("summary body holds points of form " + form);
            }
            return new Points(PackedRows.read(in, WIDTH, Integer.MAX_VALUE, "kept night's points"));
        }
    }
}
