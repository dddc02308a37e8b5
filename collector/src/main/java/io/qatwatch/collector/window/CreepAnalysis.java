package io.qatwatch.collector.window;

import io.qatwatch.collector.window.CreepTrend.DatabaseDriver;
import io.qatwatch.collector.window.CreepTrend.NightMargin;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Fits the margin trend over comparable nights and projects when it falls under the safety margin. Pure. */
public final class CreepAnalysis {

    private static final double SECONDS_PER_DAY = 86_400.0;
    private static final int MAX_DRIVERS = 3;

    private CreepAnalysis() {
    }

    /**
     * One trend per kind of night present (weekly full nights apart from differential nights), each over
     * its own most recent nights; a kind with fewer than {@code settings.minNights()} nights has none.
     */
    public static Map<NightKind, CreepTrend> analyse(List<NightlyWindow> windows, BusinessCalendar calendar,
                                                     CreepSettings settings, Instant now) {
        Map<NightKind, CreepTrend> out = new java.util.EnumMap<>(NightKind.class);
        LocalDate today = now.atZone(calendar.zone()).toLocalDate();
        fits(windows, calendar, settings).forEach((kind, fit) -> out.put(kind, fit.project(today)));
        return out;
    }

    /** The trend of the nights of one kind; empty when there are fewer than {@code settings.minNights()}. */
    public static Optional<CreepTrend> analyse(List<NightlyWindow> windows, NightKind kind, BusinessCalendar calendar,
                                               CreepSettings settings, Instant now) {
        return fit(windows, kind, calendar, settings).map(f -> f.project(now.atZone(calendar.zone()).toLocalDate()));
    }

    /** {@link #fit} of every kind of night present. */
    public static Map<NightKind, Fit> fits(List<NightlyWindow> windows, BusinessCalendar calendar, CreepSettings settings) {
        Map<NightKind, Fit> out = new java.util.EnumMap<>(NightKind.class);
        for (NightKind kind : NightKind.values()) {
            fit(windows, kind, calendar, settings).ifPresent(f -> out.put(kind, f));
        }
        return out;
    }

    /**
     * The fitted trend of one kind of night, before it is projected from a given day: what does not change
     * until a night is added. Empty when there are fewer than {@code settings.minNights()} nights. The drivers
     * are worked out when first read.
     */
    public static Optional<Fit> fit(List<NightlyWindow> windows, NightKind kind, BusinessCalendar calendar,
                                    CreepSettings settings) {
        return fit(windows, kind, calendar, settings, null);
    }

    /**
     * As {@link #fit}, with the {@code line} a fit of the same nights found before (a persisted summary's), so the
     * nights are not fitted again: the same fit when they are the same nights (the step follows from the line's slope
     * and the nights' spacing).
     */
    public static Optional<Fit> fitted(List<NightlyWindow> windows, NightKind kind, BusinessCalendar calendar,
                                       CreepSettings settings, TheilSen line) {
        return fit(windows, kind, calendar, settings, java.util.Objects.requireNonNull(line));
    }

    private static Optional<Fit> fit(List<NightlyWindow> windows, NightKind kind, BusinessCalendar calendar,
                                     CreepSettings settings, TheilSen known) {
        List<NightlyWindow> comparable = windows.stream().filter(w -> w.kind() == kind).toList();
        if (comparable.size() > settings.nights()) {
            comparable = comparable.subList(comparable.size() - settings.nights(), comparable.size());
        }
        if (comparable.size() < settings.minNights()) {
            return Optional.empty();
        }
        Instant origin = comparable.get(0).businessStart();
        List<NightlyWindow> fitted = comparable;
        double[] x = new double[comparable.size()];
        double[] y = new double[comparable.size()];
        LocalDate[] mornings = new LocalDate[comparable.size()];
        for (int i = 0; i < comparable.size(); i++) {
            NightlyWindow w = comparable.get(i);
            x[i] = days(origin, w.businessStart());
            y[i] = w.marginMinutes();
            mornings[i] = w.morning();
        }
        // y is the margins, which the fit only reads: the nights hold it
        List<NightMargin> nights = new NightMargins(mornings, y);
        TheilSen line = known != null ? known : TheilSen.fit(x, y);
        double safety = calendar.safetyMargin().getSeconds() / 60.0;
        NightlyWindow latest = comparable.get(comparable.size() - 1);
        long step = line.slope() < 0 ? Math.max(1, Math.round(medianSpacingDays(x))) : 1;
        return Optional.of(new Fit(latest.scope(), kind, nights, line, x[x.length - 1], latest.morning(), step,
                safety, new DriversOnDemand(() -> drivers(fitted, origin))));
    }

    /**
     * A fitted trend: the line through the margins of the comparable nights, the latest of them, and the
     * typical spacing of those nights in days.
     */
    public record Fit(String scope, NightKind kind, List<NightMargin> nights, TheilSen line, double latestX,
                      LocalDate latestMorning, long step, double safety, List<DatabaseDriver> drivers) {

        /** The same fit, its drivers worked out on demand by {@code drivers}. */
        public Fit withDrivers(Supplier<List<DatabaseDriver>> drivers) {
            return new Fit(scope, kind, nights, line, latestX, latestMorning, step, safety, new DriversOnDemand(drivers));
        }

        /** How far ahead a crossing of the safety margin is looked for. */
        static final long HORIZON_DAYS = 3650;

        /**
         * The trend seen from {@code today}: the first comparable night ahead (one typical spacing at a time
         * from the latest, past mornings skipped) whose projected margin falls under the safety margin.
         */
        public CreepTrend project(LocalDate today) {
            LocalDate forecast = null;
            Long daysUntil = null;
            if (line.slope() < 0) {
                long k = firstCrossing(today);
                if (k >= 0) {
                    forecast = latestMorning.plusDays(k);
                    daysUntil = ChronoUnit.DAYS.between(today, forecast);
                }
            }
            return new CreepTrend(scope, kind, nights, line.slope(), line.at(latestX), safety, forecast, daysUntil, drivers);
        }

        /**
         * The smallest {@code k} in {0, step, 2·step, … ≤ HORIZON_DAYS}, past mornings after the first skipped,
         * where the line is under the safety margin; -1 when there is none. The line falls, so the answer is
         * found from an estimate and checked against its neighbours rather than walked to.
         */
        private long firstCrossing(LocalDate today) {
            if (under(0)) {
                return 0;
            }
            long behind = ChronoUnit.DAYS.between(latestMorning, today);
            long first = Math.max(step, ceilToStep(behind));
            double estimate = (line.at(latestX) - safety) / -line.slope();
            long k = Math.max(first, ceilToStep(Math.min(estimate, HORIZON_DAYS + step)));
            while (k - step >= first && under(k - step)) {
                k -= step;
            }
            while (k <= HORIZON_DAYS && !under(k)) {
                k += step;
            }
            return k <= HORIZON_DAYS ? k : -1;
        }

        private boolean under(long k) {
            return line.at(latestX + k) < safety;
        }

        private long ceilToStep(double days) {
            return days <= 0 ? 0 : (long) Math.ceil(days / step) * step;
        }
    }

    private static double days(Instant origin, Instant t) {
        return Duration.between(origin, t).getSeconds() / SECONDS_PER_DAY;
    }

    private static double medianSpacingDays(double[] x) {
        double[] gaps = new double[x.length - 1];
        for (int i = 1; i < x.length; i++) {
            gaps[i - 1] = x[i] - x[i - 1];
        }
        return TheilSen.median(gaps);
    }

    /**
     * Per database: the slope of its backup duration and of its size over the same nights ({@code origin}: the
     * first night's business start, day 0 of the fit), the steepest {@value #MAX_DRIVERS} first. Snapshot (VSS) backups
     * are left out: their size is an estimate and their duration the freeze, so they say when a window ran, never how
     * big or slow a database's backup grows.
     */
    public static List<DatabaseDriver> drivers(List<NightlyWindow> nights, Instant origin) {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (NightlyWindow w : nights) {
            double x = days(origin, w.businessStart());
            for (DatabaseBackup b : w.backups()) {
                if (b.snapshot()) {
                    continue;
                }
                String key = NightlyWindows.key(b) + '|' + b.type();
                names.put(key, b.database());
                series.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new double[] {x, b.durationSeconds() / 60.0, b.sizeBytes()});
            }
        }
        List<DatabaseDriver> drivers = new ArrayList<>();
        series.forEach((key, points) -> {
            if (points.size() < 3 || points.get(0)[0] == points.get(points.size() - 1)[0]) {
                return;
            }
            double[] xs = points.stream().mapToDouble(p -> p[0]).toArray();
            TheilSen duration = TheilSen.fit(xs, points.stream().mapToDouble(p -> p[1]).toArray());
            if (duration.slope() <= 0) {
                return;
            }
            double[] sizes = points.stream().mapToDouble(p -> p[2]).toArray();
            TheilSen size = TheilSen.fit(xs, sizes);
            double medianSize = TheilSen.median(sizes);
            double growth = medianSize == 0 ? 0 : size.slope() * 7 / medianSize * 100;
            double[] last = points.get(points.size() - 1);
            drivers.add(new DatabaseDriver(names.get(key), duration.slope(), last[1], growth, (long) last[2]));
        });
        drivers.sort(Comparator.comparingDouble(DatabaseDriver::durationSlopeMinutesPerDay).reversed());
        return List.copyOf(drivers.size() > MAX_DRIVERS ? drivers.subList(0, MAX_DRIVERS) : drivers);
    }
}
