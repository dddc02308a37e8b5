package io.qatwatch.collector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.window.BusinessCalendar.BusinessHours;
import io.qatwatch.collector.window.BusinessCalendar.Night;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BusinessCalendarTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static BusinessCalendar officeHours(Set<LocalDate> holidays, Set<MonthDay> yearly) {
        Map<DayOfWeek, List<BusinessHours>> hours = new EnumMap<>(DayOfWeek.class);
        for (DayOfWeek d : List.of(DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY, DayOfWeek.THURSDAY, DayOfWeek.FRIDAY)) {
            hours.put(d, List.of(new BusinessHours(LocalTime.of(7, 0), LocalTime.of(19, 0))));
        }
        return new BusinessCalendar("office", BERLIN, hours, holidays, yearly, Duration.ofMinutes(60));
    }

    @Test
    void businessStartsAtSevenOnTheWallClockOnBothSidesOfEachDstChange() {
        BusinessCalendar cal = officeHours(Set.of(), Set.of());
        // 2026: summer time starts Sun 29 March 02:00 CET, ends Sun 25 October 03:00 CEST.
        Night spring = cal.nightContaining(Instant.parse("2026-03-29T01:30:00Z")).orElseThrow();
        assertThat(spring.businessEnd()).isEqualTo(Instant.parse("2026-03-27T18:00:00Z")); // Fri 19:00 CET
        assertThat(spring.businessStart()).isEqualTo(Instant.parse("2026-03-30T05:00:00Z")); // Mon 07:00 CEST
        assertThat(spring.morning()).isEqualTo(LocalDate.of(2026, 3, 30));

        Night autumn = cal.nightContaining(Instant.parse("2026-10-25T01:30:00Z")).orElseThrow();
        assertThat(autumn.businessEnd()).isEqualTo(Instant.parse("2026-10-23T17:00:00Z")); // Fri 19:00 CEST
        assertThat(autumn.businessStart()).isEqualTo(Instant.parse("2026-10-26T06:00:00Z")); // Mon 07:00 CET

        // The same UTC finish is inside the margin before the autumn change and a breach after it.
        List<NightlyWindow.DatabaseBackup> before = List.of(backup("2026-10-22T01:00:00Z", "2026-10-22T04:30:00Z"));
        List<NightlyWindow.DatabaseBackup> after = List.of(backup("2026-10-29T01:00:00Z", "2026-10-29T05:30:00Z"));
        NightlyWindow b = NightlyWindows.build("h/i", before, cal, WindowSettings.DEFAULTS).get(0);
        NightlyWindow a = NightlyWindows.build("h/i", after, cal, WindowSettings.DEFAULTS).get(0);
        assertThat(b.marginMinutes()).isEqualTo(30.0);   // business 05:00Z in CEST
        assertThat(a.marginMinutes()).isEqualTo(30.0);   // business 06:00Z in CET
        assertThat(a.breached()).isFalse();
    }

    @Test
    void hoursInsideTheSpringForwardGapStartWhenTheClockResumes() {
        Map<DayOfWeek, List<BusinessHours>> hours = new EnumMap<>(DayOfWeek.class);
        hours.put(DayOfWeek.SUNDAY, List.of(new BusinessHours(LocalTime.of(2, 30), LocalTime.of(6, 0))));
        BusinessCalendar shift = new BusinessCalendar("night-shift", BERLIN, hours, Set.of(), Set.of(), Duration.ZERO);
        // 02:30 does not exist on 2026-03-29 in Berlin; the shift starts at 03:30 CEST = 01:30Z.
        assertThat(shift.businessIntervals(LocalDate.of(2026, 3, 29)).get(0).start())
                .isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
    }

    @Test
    void holidaysExtendTheNightFixedAndRecurring() {
        BusinessCalendar cal = officeHours(Set.of(LocalDate.of(2026, 12, 24)), Set.of(MonthDay.of(12, 25), MonthDay.of(12, 31)));
        // Wed 23 Dec 19:00 → (24 fixed, 25 yearly, weekend) → Mon 28 Dec 07:00.
        Night christmas = cal.nightContaining(Instant.parse("2026-12-24T12:00:00Z")).orElseThrow();
        assertThat(christmas.morning()).isEqualTo(LocalDate.of(2026, 12, 28));
        assertThat(christmas.businessEnd()).isEqualTo(Instant.parse("2026-12-23T18:00:00Z"));
        // The yearly 31 December holds in 2027 too.
        assertThat(cal.isHoliday(LocalDate.of(2027, 12, 31))).isTrue();
        assertThat(cal.isBusinessTime(Instant.parse("2027-12-31T10:00:00Z"))).isFalse();
        assertThat(cal.isBusinessTime(Instant.parse("2027-12-30T10:00:00Z"))).isTrue();
        assertThat(cal.nightContaining(Instant.parse("2027-12-30T10:00:00Z"))).isEmpty();
    }

    private static NightlyWindow.DatabaseBackup backup(String start, String end) {
        return new NightlyWindow.DatabaseBackup("h/i", "Sales", "g1", "D", false, Instant.parse(start), Instant.parse(end),
                1_000_000_000L, null, "MS_XPRESS", "LOCAL", false, false);
    }
}
