package io.qatwatch.collector.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.window.BusinessCalendar.BusinessHours;
import io.qatwatch.collector.window.CreepTrend.NightMargin;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A creep fit's nights are held as two arrays ({@link NightMargins}) but read as the list of {@link NightMargin}s
 * they were: the same elements, equality, hash and printing, and as immutable.
 */
class NightMarginsTest {

    private static final LocalDate MONDAY = LocalDate.of(2026, 3, 2);

    private static NightMargins margins(double... minutes) {
        LocalDate[] mornings = new LocalDate[minutes.length];
        for (int i = 0; i < minutes.length; i++) {
            mornings[i] = MONDAY.plusDays(i);
        }
        return new NightMargins(mornings, minutes);
    }

    private static List<NightMargin> records(double... minutes) {
        List<NightMargin> out = new ArrayList<>();
        for (int i = 0; i < minutes.length; i++) {
            out.add(new NightMargin(MONDAY.plusDays(i), minutes[i]));
        }
        return List.copyOf(out);
    }

    @Test
    void readAsTheListOfRecordsItHolds() {
        NightMargins m = margins(61.5, -3.25, 0.0, -0.0);
        List<NightMargin> r = records(61.5, -3.25, 0.0, -0.0);
        assertThat(m).containsExactlyElementsOf(r).hasSize(4);
        assertThat(m.get(1)).isEqualTo(new NightMargin(MONDAY.plusDays(1), -3.25));
        assertThat(m).isEqualTo(r).hasSameHashCodeAs(r);
        assertThat(r).isEqualTo(m);
        assertThat(m).hasToString(r.toString());
        // as records compare doubles: 0.0 and -0.0 differ
        assertThat(m).isNotEqualTo(records(61.5, -3.25, 0.0, 0.0));
        assertThat(margins()).isEqualTo(List.of()).isEmpty();
        assertThatThrownBy(() -> m.get(4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void immutableAndWithoutNullMorningsAsListCopyOfWas() {
        NightMargins m = margins(1, 2);
        assertThatThrownBy(() -> m.add(new NightMargin(MONDAY, 3))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> m.set(0, new NightMargin(MONDAY, 3))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> m.remove(0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new NightMargins(new LocalDate[] {MONDAY, null}, new double[2]))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new NightMargins(new LocalDate[] {MONDAY}, new double[2]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTrendKeepsItsFitsNightsWithoutACopyAndCopiesAnyOtherList() {
        NightMargins m = margins(10, 9, 8);
        CreepTrend kept = new CreepTrend("h/i", NightKind.FULL, m, -1, 8, 30, null, null, List.of());
        assertThat(kept.nights()).isSameAs(m);
        List<NightMargin> mutable = new ArrayList<>(records(10, 9, 8));
        CreepTrend copied = new CreepTrend("h/i", NightKind.FULL, mutable, -1, 8, 30, null, null, List.of());
        mutable.clear();
        assertThat(copied.nights()).isEqualTo(m);
        assertThat(copied).isEqualTo(kept);
    }

    @Test
    void aFitHoldsItsNightsCompactlyWithTheWindowsMorningsAndMargins() {
        Map<DayOfWeek, List<BusinessHours>> hours = new EnumMap<>(DayOfWeek.class);
        for (DayOfWeek d : DayOfWeek.values()) {
            hours.put(d, List.of(new BusinessHours(LocalTime.of(7, 0), LocalTime.of(19, 0))));
        }
        BusinessCalendar utc = new BusinessCalendar("utc", ZoneOffset.UTC, hours, Set.of(), Set.of(), Duration.ofMinutes(30));
        List<NightlyWindow> windows = new ArrayList<>();
        List<NightMargin> expected = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            LocalDate morning = MONDAY.plusDays(n);
            Instant end = morning.minusDays(1).atTime(19, 0).toInstant(ZoneOffset.UTC);
            Instant start = morning.atTime(7, 0).toInstant(ZoneOffset.UTC);
            Instant last = start.minusSeconds(3_600 - 120L * n);
            long margin = Duration.between(last, start).getSeconds();
            windows.add(new NightlyWindow("h/i", morning, NightKind.FULL, end, start, end.plusSeconds(7_200), last, margin,
                    List.of()));
            expected.add(new NightMargin(morning, margin / 60.0));
        }
        CreepAnalysis.Fit fit = CreepAnalysis.fit(windows, NightKind.FULL, utc, CreepSettings.DEFAULTS).orElseThrow();
        assertThat(fit.nights()).isInstanceOf(NightMargins.class).isEqualTo(expected);
        assertThat(fit.nights().get(0).morning()).isSameAs(windows.get(0).morning());
        assertThat(fit.project(MONDAY.plusDays(10)).nights()).isSameAs(fit.nights());
        assertThat(fit.line().slope()).isEqualTo(-2.0);
    }
}
