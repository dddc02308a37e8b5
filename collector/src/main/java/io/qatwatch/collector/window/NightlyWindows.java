package io.qatwatch.collector.window;

import io.qatwatch.collector.window.BusinessCalendar.Night;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Builds nightly windows from backup history: pure, no I/O. */
public final class NightlyWindows {

    private NightlyWindows() {
    }

    /**
     * The windows of one scope, oldest night first. Backups that started inside business hours belong to
     * no night and are left out; so are log and copy-only backups unless {@code settings} include them, except
     * the copy-only fulls of availability-group secondaries ({@link DatabaseBackup#onSecondary()}), which count as
     * fulls (before SQL Server 2025 a secondary can take no other full).
     *
     * @param backups        the scope's backups (for an availability group: from every replica)
     */
    public static List<NightlyWindow> build(String scope, List<DatabaseBackup> backups, BusinessCalendar calendar,
                                            WindowSettings settings) {
        return build(scope, backups, new Nights(calendar), settings);
    }

    /** As {@link #build(String, List, BusinessCalendar, WindowSettings)}, with the calendar's nights resolved so far. */
    public static List<NightlyWindow> build(String scope, List<DatabaseBackup> backups, Nights known,
                                            WindowSettings settings) {
        TreeMap<LocalDate, Night> nights = new TreeMap<>();
        Map<LocalDate, List<DatabaseBackup>> byNight = new HashMap<>();
        for (DatabaseBackup b : dedup(backups)) {
            if (!counts(b, settings)) {
                continue;
            }
            Night night = known.containing(b.startedAt());
            if (night != null) {
                nights.put(night.morning(), night);
                byNight.computeIfAbsent(night.morning(), k -> new ArrayList<>()).add(b);
            }
        }
        List<NightlyWindow> windows = new ArrayList<>();
        for (Night night : nights.values()) {
            List<DatabaseBackup> in = byNight.get(night.morning());
            in.sort(Comparator.comparing(DatabaseBackup::startedAt));
            Instant first = in.get(0).startedAt();
            Instant last = in.stream().map(DatabaseBackup::finishedAt).max(Comparator.naturalOrder()).orElseThrow();
            long margin = Duration.between(last, night.businessStart()).getSeconds();
            windows.add(new NightlyWindow(scope, night.morning(), NightKind.DIFFERENTIAL, night.businessEnd(),
                    night.businessStart(), first, last, margin, in));
        }
        return classify(windows);
    }

    /** True when {@code b} belongs in a nightly window under {@code settings}. */
    public static boolean counts(DatabaseBackup b, WindowSettings settings) {
        if ("L".equals(b.type()) && !settings.includeLog()) {
            return false;
        }
        if (b.copyOnly() && !settings.includeCopyOnly()) {
            return b.isFull() && b.onSecondary();
        }
        return true;
    }

    /** The same backup seen twice (two replicas' msdb, or a re-sent report) counts once. */
    static List<DatabaseBackup> dedup(List<DatabaseBackup> backups) {
        Map<Identity, DatabaseBackup> unique = new HashMap<>();
        for (DatabaseBackup b : backups) {
            unique.putIfAbsent(new Identity(key(b), b.type(), b.startedAt(), b.finishedAt()), b);
        }
        return new ArrayList<>(unique.values());
    }

    /** What makes two backup rows the same backup. */
    private record Identity(String database, String type, Instant startedAt, Instant finishedAt) {
    }

    /**
     * The nights a calendar has, each resolved once: every instant of a night maps to the same night, so a
     * backup starting inside a night already seen needs no calendar search. Shared by the instances of a
     * calendar, their windows share the night's instants too. Not thread-safe.
     */
    public static final class Nights {

        private final BusinessCalendar calendar;
        private final TreeMap<Instant, Night> byEnd = new TreeMap<>();

        public Nights(BusinessCalendar calendar) {
            this.calendar = calendar;
        }

        public BusinessCalendar calendar() {
            return calendar;
        }

        /** The night containing {@code t}, or null when {@code t} falls in business hours. */
        public Night containing(Instant t) {
            Map.Entry<Instant, Night> e = byEnd.floorEntry(t);
            if (e != null && t.isBefore(e.getValue().businessStart())) {
                return e.getValue();
            }
            Night n = calendar.nightContaining(t).orElse(null);
            if (n != null) {
                byEnd.put(n.businessEnd(), n);
            }
            return n;
        }
    }

    /**
     * Marks each window FULL when the databases fully backed up that night hold at least half of the
     * scope's full-backup bytes (each database weighted by its largest full), else DIFFERENTIAL. A snapshot (VSS)
     * full weighs nothing: its size is an estimate. When no full of the scope has a measured size, a night with a
     * full is FULL.
     */
    static List<NightlyWindow> classify(List<NightlyWindow> windows) {
        Map<String, Long> weight = new HashMap<>();
        for (NightlyWindow w : windows) {
            for (DatabaseBackup b : w.backups()) {
                if (b.isFull() && !b.snapshot()) {
                    weight.merge(key(b), b.sizeBytes(), Math::max);
                }
            }
        }
        double total = weight.values().stream().mapToLong(Long::longValue).sum();
        List<NightlyWindow> out = new ArrayList<>();
        for (NightlyWindow w : windows) {
            Set<String> fulls = new LinkedHashSet<>();
            w.backups().stream().filter(DatabaseBackup::isFull).forEach(b -> fulls.add(key(b)));
            boolean full = total == 0 ? !fulls.isEmpty()
                    : fulls.stream().mapToLong(k -> weight.getOrDefault(k, 0L)).sum() / total >= 0.5;
            out.add(w.withKind(full ? NightKind.FULL : NightKind.DIFFERENTIAL));
        }
        return out;
    }

    static String key(DatabaseBackup b) {
        return b.databaseKey() == null ? b.database() : b.databaseKey();
    }
}
