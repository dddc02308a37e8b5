package io.qatwatch.collector.window;

import java.time.LocalDate;
import java.util.List;

/**
 * The trend of one scope's margin over its recent comparable nights, and where it leads. Plain data for
 * alerts, the status page and the InfluxDB sink.
 *
 * @param slopeMinutesPerDay      Theil–Sen slope of the margin; negative when the window creeps toward business hours
 * @param projectedMarginMinutes  the trend's margin at the latest night
 * @param forecastDate            the first comparable night (by its morning) whose projected margin falls under
 *                                the safety margin; null when the margin is not shrinking
 * @param daysUntilForecast       days from today (in the calendar's zone) to {@code forecastDate}; null with it
 * @param drivers                 databases whose backups grow longest, largest duration slope first
 */
public record CreepTrend(
        String scope,
        NightKind kind,
        List<NightMargin> nights,
        double slopeMinutesPerDay,
        double projectedMarginMinutes,
        double safetyMarginMinutes,
        LocalDate forecastDate,
        Long daysUntilForecast,
        List<DatabaseDriver> drivers) {

    public CreepTrend {
        // a fit's nights are held compactly and are immutable already
        nights = nights instanceof NightMargins ? nights : List.copyOf(nights);
        drivers = drivers instanceof DriversOnDemand ? drivers : List.copyOf(drivers);
    }

    /** One fitted night: its morning and margin in minutes. */
    public record NightMargin(LocalDate morning, double marginMinutes) {
    }

    /**
     * A database behind the creep.
     *
     * @param durationSlopeMinutesPerDay Theil–Sen slope of its backup duration over the same nights
     * @param sizeGrowthPercentPerWeek   Theil–Sen slope of its backup size, as percent of its median size per week
     */
    public record DatabaseDriver(String database, double durationSlopeMinutesPerDay, double latestDurationMinutes,
                                 double sizeGrowthPercentPerWeek, long latestSizeBytes) {
    }
}
