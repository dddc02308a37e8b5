package io.qatwatch.collector.window;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * When a host group's business runs: weekly hours per weekday in an IANA zone, holidays (fixed dates and
 * yearly recurring days) and the safety margin a backup window should keep before business starts.
 * Local times are resolved through the zone, so a DST change moves the business start in UTC, never the
 * business start on the wall clock.
 */
public record BusinessCalendar(
        String name,
        ZoneId zone,
        Map<DayOfWeek, List<BusinessHours>> weeklyHours,
        Set<LocalDate> holidays,
        Set<MonthDay> recurringHolidays,
        Duration safetyMargin) {

    /** How far the search for the next or previous business hours goes before it gives up. */
    private static final int SEARCH_DAYS = 400;

    public BusinessCalendar {
        EnumMap<DayOfWeek, List<BusinessHours>> hours = new EnumMap<>(DayOfWeek.class);
        weeklyHours.forEach((day, spans) -> hours.put(day, spans.stream()
                .sorted(Comparator.comparing(BusinessHours::start)).toList()));
        weeklyHours = Map.copyOf(hours);
        holidays = Set.copyOf(holidays);
        recurringHolidays = Set.copyOf(recurringHolidays);
        if (weeklyHours.values().stream().allMatch(List::isEmpty)) {
            throw new IllegalArgumentException("calendar " + name + " has no business hours on any weekday");
        }
    }

    /** Business hours on one weekday, local wall-clock time; {@code end} after {@code start}. */
    public record BusinessHours(LocalTime start, LocalTime end) {
        public BusinessHours {
            if (!end.isAfter(start)) {
                throw new IllegalArgumentException("business hours end " + end + " is not after start " + start);
            }
        }
    }

    /** A span of time, start inclusive, end exclusive. */
    public record Interval(Instant start, Instant end) {
        public boolean contains(Instant t) {
            return !t.isBefore(start) && t.isBefore(end);
        }
    }

    /** True for a fixed or recurring holiday. */
    public boolean isHoliday(LocalDate date) {
        return holidays.contains(date) || recurringHolidays.contains(MonthDay.from(date));
    }

    /** The business intervals of one local date, in order; empty on holidays and days without hours. */
    public List<Interval> businessIntervals(LocalDate date) {
        if (isHoliday(date)) {
            return List.of();
        }
        List<Interval> out = new ArrayList<>();
        for (BusinessHours h : weeklyHours.getOrDefault(date.getDayOfWeek(), List.of())) {
            // ZonedDateTime.of moves a time inside a spring-forward gap to after the gap, as a wall clock does.
            Instant start = ZonedDateTime.of(date, h.start(), zone).toInstant();
            Instant end = ZonedDateTime.of(date, h.end(), zone).toInstant();
            out.add(new Interval(start, end));
        }
        return out;
    }

    /** True when {@code t} falls inside business hours. */
    public boolean isBusinessTime(Instant t) {
        LocalDate date = t.atZone(zone).toLocalDate();
        return businessIntervals(date).stream().anyMatch(i -> i.contains(t));
    }

    /** The business interval that contains {@code t} or, outside business hours, the next one to start. */
    public Interval businessIntervalAtOrAfter(Instant t) {
        LocalDate date = t.atZone(zone).toLocalDate();
        for (int d = 0; d < SEARCH_DAYS; d++) {
            for (Interval i : businessIntervals(date.plusDays(d))) {
                if (i.end().isAfter(t)) {
                    return i;
                }
            }
        }
        throw new IllegalStateException("calendar " + name + " has no business hours within " + SEARCH_DAYS + " days after " + t);
    }

    /** The end of the last business interval that ended at or before {@code t}. */
    public Instant previousBusinessEnd(Instant t) {
        LocalDate date = t.atZone(zone).toLocalDate();
        for (int d = 0; d < SEARCH_DAYS; d++) {
            List<Interval> day = businessIntervals(date.minusDays(d));
            for (int k = day.size() - 1; k >= 0; k--) {
                if (!day.get(k).end().isAfter(t)) {
                    return day.get(k).end();
                }
            }
        }
        throw new IllegalStateException("calendar " + name + " has no business hours within " + SEARCH_DAYS + " days before " + t);
    }

    /**
     * The night (the gap between two business intervals, weekends and holidays included) that contains
     * {@code t}; empty when {@code t} is inside business hours.
     */
    public java.util.Optional<Night> nightContaining(Instant t) {
        Interval next = businessIntervalAtOrAfter(t);
        if (next.contains(t)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Night(previousBusinessEnd(t), next.start(), next.start().atZone(zone).toLocalDate()));
    }

    /**
     * A gap between business intervals.
     *
     * @param morning the local date on which business starts again; names the night
     */
    public record Night(Instant businessEnd, Instant businessStart, LocalDate morning) {
    }
}
