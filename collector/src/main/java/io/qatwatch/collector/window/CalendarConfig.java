package io.qatwatch.collector.window;

import io.qatwatch.collector.window.BusinessCalendar.BusinessHours;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A named business calendar as configured.
 *
 * @param hours    weekday or weekday range to hours, e.g. {@code mon-fri: "07:00-19:00"}, {@code sat: "08:00-12:00"};
 *                 several spans separated by commas
 * @param holidays {@code 2026-12-24} for one date, {@code --12-25} (ISO month-day) for every year
 */
public record CalendarConfig(String name, String zone, Map<String, String> hours, List<String> holidays,
                             Integer safetyMarginMinutes) {

    public CalendarConfig {
        zone = zone == null ? "UTC" : zone;
        hours = hours == null ? Map.of("mon-fri", "07:00-19:00") : new LinkedHashMap<>(hours);
        holidays = holidays == null ? List.of() : List.copyOf(holidays);
        safetyMarginMinutes = safetyMarginMinutes == null ? 60 : safetyMarginMinutes;
    }

    /** The built-in calendar used when none is configured: Mon–Fri 07:00–19:00 UTC, 60 minutes margin. */
    public static CalendarConfig builtIn() {
        return new CalendarConfig("default", null, null, null, null);
    }

    /** Checks every field, adding one problem per wrong key under {@code key}. */
    public void validate(String key, List<String> problems) {
        if (name == null || name.isBlank()) {
            problems.add(key + ".name: missing; give the calendar a name that host groups refer to");
        }
        try {
            ZoneId.of(zone);
        } catch (DateTimeException e) {
            problems.add(key + ".zone: unknown time zone '" + zone + "'; use an IANA name such as Europe/Berlin");
        }
        if (safetyMarginMinutes < 0) {
            problems.add(key + ".safetyMarginMinutes: must be 0 or more, got " + safetyMarginMinutes);
        }
        for (Map.Entry<String, String> e : hours.entrySet()) {
            try {
                parseDays(e.getKey());
                parseSpans(e.getValue());
            } catch (IllegalArgumentException | DateTimeException ex) {
                problems.add(key + ".hours." + e.getKey() + ": " + ex.getMessage()
                        + "; write e.g. mon-fri: \"07:00-19:00\"");
            }
        }
        if (hours.isEmpty()) {
            problems.add(key + ".hours: empty; a calendar needs business hours on at least one weekday");
        }
        for (int i = 0; i < holidays.size(); i++) {
            try {
                parseHoliday(holidays.get(i), new HashSet<>(), new HashSet<>());
            } catch (DateTimeException ex) {
                problems.add(key + ".holidays[" + i + "]: '" + holidays.get(i)
                        + "' is neither a date (2026-12-24) nor a yearly day (--12-25)");
            }
        }
    }

    /** The calendar; call after {@link #validate} found nothing. */
    public BusinessCalendar toCalendar() {
        Map<DayOfWeek, List<BusinessHours>> weekly = new EnumMap<>(DayOfWeek.class);
        hours.forEach((days, spans) -> {
            for (DayOfWeek d : parseDays(days)) {
                weekly.computeIfAbsent(d, k -> new ArrayList<>()).addAll(parseSpans(spans));
            }
        });
        Set<LocalDate> dates = new HashSet<>();
        Set<MonthDay> yearly = new HashSet<>();
        holidays.forEach(h -> parseHoliday(h, dates, yearly));
        return new BusinessCalendar(name, ZoneId.of(zone), weekly, dates, yearly, Duration.ofMinutes(safetyMarginMinutes));
    }

    private static List<DayOfWeek> parseDays(String spec) {
        String[] parts = spec.trim().toLowerCase(Locale.ROOT).split("-");
        if (parts.length == 1) {
            return List.of(day(parts[0]));
        }
        if (parts.length != 2) {
            throw new IllegalArgumentException("'" + spec + "' is not a weekday or a weekday range");
        }
        List<DayOfWeek> out = new ArrayList<>();
        DayOfWeek d = day(parts[0]);
        DayOfWeek last = day(parts[1]);
        out.add(d);
        while (d != last) {
            d = d.plus(1);
            out.add(d);
        }
        return out;
    }

    private static DayOfWeek day(String s) {
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.name().toLowerCase(Locale.ROOT).startsWith(s) && s.length() >= 3) {
                return d;
            }
        }
        throw new IllegalArgumentException("'" + s + "' is not a weekday (mon, tue, wed, thu, fri, sat, sun)");
    }

    private static List<BusinessHours> parseSpans(String spec) {
        List<BusinessHours> out = new ArrayList<>();
        for (String span : spec.split(",")) {
            String[] t = span.trim().split("-");
            if (t.length != 2) {
                throw new IllegalArgumentException("'" + span.trim() + "' is not a span like 07:00-19:00");
            }
            out.add(new BusinessHours(LocalTime.parse(t[0].trim()), LocalTime.parse(t[1].trim())));
        }
        return out;
    }

    private static void parseHoliday(String h, Set<LocalDate> dates, Set<MonthDay> yearly) {
        if (h.startsWith("--")) {
            yearly.add(MonthDay.parse(h));
        } else {
            dates.add(LocalDate.parse(h));
        }
    }
}
