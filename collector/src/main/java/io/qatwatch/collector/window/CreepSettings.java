package io.qatwatch.collector.window;

/**
 * How the creep trend is fitted and when it alerts.
 *
 * @param nights                 comparable nights fitted (the most recent ones)
 * @param minNights              fewer comparable nights than this: no trend
 * @param horizonDays            alert when the margin is projected under the safety margin within this many days
 * @param minSlopeMinutesPerDay  a shrinking margin slower than this is noise, not creep
 */
public record CreepSettings(Integer nights, Integer minNights, Integer horizonDays, Double minSlopeMinutesPerDay) {

    /** 21 nights, at least 7, a 21-day horizon, a tenth of a minute per day. */
    public static final CreepSettings DEFAULTS = new CreepSettings(null, null, null, null);

    public CreepSettings {
        nights = nights == null ? 21 : nights;
        minNights = minNights == null ? 7 : minNights;
        horizonDays = horizonDays == null ? 21 : horizonDays;
        minSlopeMinutesPerDay = minSlopeMinutesPerDay == null ? 0.1 : minSlopeMinutesPerDay;
    }
}
