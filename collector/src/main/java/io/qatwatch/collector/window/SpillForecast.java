package io.qatwatch.collector.window;

import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a running backup will finish, from its {@code percent_complete} and elapsed time, and where the
 * window will then end: the predicted finish plus the tail that followed this database's backup on the
 * latest comparable night (the databases the job still has to do).
 *
 * @param tailSeconds     time from this database's finish to the window end on the latest comparable night
 * @param marginSeconds   business start minus predicted window end; negative predicts a spill
 * @param leadTimeSeconds business start minus now: the time left to act
 */
public record SpillForecast(
        String scope,
        String database,
        Instant startedAt,
        double percentComplete,
        long elapsedSeconds,
        Instant predictedFinish,
        long tailSeconds,
        Instant predictedWindowEnd,
        LocalDate morning,
        Instant businessStart,
        long marginSeconds,
        long leadTimeSeconds) {

    /** True when the window is predicted to end after business starts. */
    public boolean spills() {
        return marginSeconds < 0;
    }

    /**
     * The forecast for a backup that started in a night and is still running at {@code now}; empty when it
     * started in business hours, or has not progressed far enough ({@code minPercent}) to extrapolate.
     *
     * @param tail how long the window ran on after this database's backup finished, on the latest night it was
     *             backed up ({@link #tail} of {@link #tails})
     */
    public static Optional<SpillForecast> of(String scope, String database, Instant startedAt, double percentComplete,
                                             long elapsedSeconds, Instant now, BusinessCalendar calendar,
                                             long tail, double minPercent) {
        if (percentComplete < minPercent || percentComplete <= 0 || elapsedSeconds <= 0) {
            return Optional.empty();
        }
        Optional<BusinessCalendar.Night> night = calendar.nightContaining(startedAt);
        if (night.isEmpty()) {
            return Optional.empty();
        }
        long remaining = Math.round(elapsedSeconds * (100.0 - percentComplete) / percentComplete);
        Instant finish = now.plusSeconds(remaining);
        Instant windowEnd = finish.plusSeconds(tail);
        Instant businessStart = night.get().businessStart();
        return Optional.of(new SpillForecast(scope, database, startedAt, percentComplete, elapsedSeconds, finish, tail,
                windowEnd, night.get().morning(), businessStart,
                Duration.between(windowEnd, businessStart).getSeconds(),
                Duration.between(now, businessStart).getSeconds()));
    }

    /**
     * Every database's tail over {@code history} (oldest night first), by lower-case name: for each database,
     * from the latest night it was backed up in (log backups aside).
     */
    public static Map<String, Long> tails(List<NightlyWindow> history) {
        Map<String, Long> out = new HashMap<>();
        // a database's name is lower-cased once per call, not once per backup of its 90 nights (the names repeat, and
        // the cold start's reads share them); one with a tail from a later night is skipped, as putIfAbsent would. One
        // night (the alert stage's call, each time a night finishes) has a backup or two a name: no map for it.
        Map<String, String> lowered = history.size() > 1 ? new HashMap<>() : null;
        for (int i = history.size() - 1; i >= 0; i--) {
            NightlyWindow w = history.get(i);
            Map<String, Instant> finished = new HashMap<>();
            for (DatabaseBackup b : w.backups()) {
                if (!"L".equals(b.type())) {
                    String db = lowered == null ? b.database().toLowerCase(Locale.ROOT)
                            : lowered.computeIfAbsent(b.database(), d -> d.toLowerCase(Locale.ROOT));
                    if (!out.containsKey(db)) {
                        finished.merge(db, b.finishedAt(), (x, y) -> x.isAfter(y) ? x : y);
                    }
                }
            }
            finished.forEach((db, at) -> out.putIfAbsent(db, Math.max(0, Duration.between(at, w.lastFinish()).getSeconds())));
        }
        return out;
    }

    /** The tail of one database from {@link #tails}; 0 when it has none. */
    public static long tail(Map<String, Long> tails, String database) {
        return tails.getOrDefault(database.toLowerCase(Locale.ROOT), 0L);
    }
}
