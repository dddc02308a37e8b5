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
        for (NightKind kind : NightKind.values()) {
            analyse(windows, kind, calendar, settings, now).ifPresent(t -> out.put(kind, t));
        }
        return out;
    }

    /** The trend of the nights of one kind; empty when there are fewer than {@code settings.minNights()}. */
    public static Optional<CreepTrend> analyse(List<NightlyWindow> windows, NightKind kind, BusinessCalendar calendar,
                                               CreepSettings settings, Instant now) {
        List<NightlyWindow> comparable = windows.stream().filter(w -> w.kind() == kind).toList();
        if (comparable.size() > settings.nights()) {
            comparable = comparable.subList(comparable.size() - settings.nights(), comparable.size());
        }
        if (comparable.size() < settings.minNights()) {
            return Optional.empty();
        }
        Instant origin = comparable.get(0).businessStart();
        double[] x = new double[comparable.size()];
        double[] y = new double[comparable.size()];
        List<NightMargin> nights = new ArrayList<>();
        for (int i = 0; i < comparable.size(); i++) {
            NightlyWindow w = comparable.get(i);
            x[i] = days(origin, w.businessStart());
            y[i] = w.marginMinutes();
            nights.add(new NightMargin(w.morning(), w.marginMinutes()));
        }
        TheilSen line = TheilSen.fit(x, y);
        double safety = calendar.safetyMargin().getSeconds() / 60.0;
        NightlyWindow latest = comparable.get(comparable.size() - 1);
        double latestX = x[x.length - 1];

        LocalDate forecast = null;
        Long daysUntil = null;
        if (line.slope() < 0) {
            long step = Math.max(1, Math.round(medianSpacingDays(x)));
            LocalDate today = now.atZone(calendar.zone()).toLocalDate();
            // Walk the comparable nights ahead, one typical spacing at a time, until the projection crosses.
            for (long k = 0; k <= 3650; k += step) {
                LocalDate morning = latest.morning().plusDays(k);
                if (morning.isBefore(today) && k > 0) {
                    continue;
                }
                if (line.at(latestX + k) < safety) {
                    forecast = morning;
                    daysUntil = ChronoUnit.DAYS.between(today, morning);
                    break;
                }
            }
        }
        return Optional.of(new CreepTrend(latest.scope(), kind, nights, line.slope(), line.at(latestX), safety,
                forecast, daysUntil, drivers(comparable, origin)));
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

    /** Per database: the slope of its backup duration and of its size over the same nights. */
    static List<DatabaseDriver> drivers(List<NightlyWindow> nights, Instant origin) {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (NightlyWindow w : nights) {
            double x = days(origin, w.businessStart());
            for (DatabaseBackup b : w.backups()) {
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
            double[] sizes = points.stream().mapToDouble(p -> p[2]).toArray();
            TheilSen size = TheilSen.fit(xs, sizes);
            double medianSize = TheilSen.median(sizes);
            double growth = medianSize == 0 ? 0 : size.slope() * 7 / medianSize * 100;
            double[] last = points.get(points.size() - 1);
            if (duration.slope() > 0) {
                drivers.add(new DatabaseDriver(names.get(key), duration.slope(), last[1], growth, (long) last[2]));
            }
        });
        drivers.sort(Comparator.comparingDouble(DatabaseDriver::durationSlopeMinutesPerDay).reversed());
        return drivers.size() > MAX_DRIVERS ? drivers.subList(0, MAX_DRIVERS) : drivers;
    }
}
