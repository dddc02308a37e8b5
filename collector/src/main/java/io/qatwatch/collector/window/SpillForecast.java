package io.qatwatch.collector.window;

import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
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
     */
    public static Optional<SpillForecast> of(String scope, String database, Instant startedAt, double percentComplete,
                                             long elapsedSeconds, Instant now, BusinessCalendar calendar,
                                             List<NightlyWindow> history, double minPercent) {
        if (percentComplete < minPercent || percentComplete <= 0 || elapsedSeconds <= 0) {
            return Optional.empty();
        }
        Optional<BusinessCalendar.Night> night = calendar.nightContaining(startedAt);
        if (night.isEmpty()) {
            return Optional.empty();
        }
        long remaining = Math.round(elapsedSeconds * (100.0 - percentComplete) / percentComplete);
        Instant finish = now.plusSeconds(remaining);
        long tail = tail(database, history);
        Instant windowEnd = finish.plusSeconds(tail);
        Instant businessStart = night.get().businessStart();
        return Optional.of(new SpillForecast(scope, database, startedAt, percentComplete, elapsedSeconds, finish, tail,
                windowEnd, night.get().morning(), businessStart,
                Duration.between(windowEnd, businessStart).getSeconds(),
                Duration.between(now, businessStart).getSeconds()));
    }

    private static long tail(String database, List<NightlyWindow> history) {
        for (int i = history.size() - 1; i >= 0; i--) {
            NightlyWindow w = history.get(i);
            Optional<Instant> finished = w.backups().stream()
                    .filter(b -> b.database().equalsIgnoreCase(database) && !"L".equals(b.type()))
                    .map(DatabaseBackup::finishedAt).max(Instant::compareTo);
            if (finished.isPresent()) {
                return Math.max(0, Duration.between(finished.get(), w.lastFinish()).getSeconds());
            }
        }
        return 0;
    }
}
