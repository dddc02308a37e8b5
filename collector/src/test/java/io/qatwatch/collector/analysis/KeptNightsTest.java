package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.analysis.KeptFitsTest.NOW;
import static io.qatwatch.collector.analysis.KeptFitsTest.SCOPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.BusinessCalendar.Night;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.NightlyWindows;
import java.time.ZoneId;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A summary writes a kept night of the instance over its calendar's business hours by its business end alone: read back,
 * the night is the writer's, on the calendar's own night (morning and business hours) and the instance's own scope, and
 * a body whose night the reading calendar does not have is damaged.
 */
class KeptNightsTest {

    private static final AnalysisConfig CONFIG = GeneratedFleetGoldenTest.CONFIG.analysis();

    private static BusinessCalendar calendar() {
        return CONFIG.businessCalendars().get(CONFIG.defaultCalendar());
    }

    @Test
    void aHistoryReadBackHasTheWritersNightsOnTheCalendarsOwnNights() {
        byte[][] body = new byte[1][];
        KeptHistory kept = KeptFitsTest.written(CONFIG, body);
        NightlyWindows.Nights nights = new NightlyWindows.Nights(calendar());
        String scope = new String(SCOPE);
        KeptHistory read = KeptHistory.read(new SummaryInput(body[0], UnaryOperator.identity()), scope, nights, CONFIG);
        read.advance(NOW);
        List<NightlyWindow> written = kept.history().windows();
        List<NightlyWindow> back = read.history().windows();
        assertThat(back).isEqualTo(written).hasSizeGreaterThan(10);
        for (NightlyWindow w : back) {
            Night night = nights.containing(w.businessEnd());
            assertThat(w.morning()).isSameAs(night.morning());
            assertThat(w.businessStart()).isSameAs(night.businessStart());
            assertThat(w.businessEnd()).isSameAs(night.businessEnd());
            assertThat(w.scope()).isSameAs(scope);
        }
    }

    @Test
    void aBodyWhoseCalendarsNightTheReadingCalendarDoesNotHaveIsDamaged() {
        byte[][] body = new byte[1][];
        KeptFitsTest.written(CONFIG, body);
        BusinessCalendar berlin = calendar();
        // the same hours nine hours ahead: a Berlin morning's end of night falls in Tokyo's business hours
        BusinessCalendar tokyo = new BusinessCalendar(berlin.name(), ZoneId.of("Asia/Tokyo"), berlin.weeklyHours(),
                berlin.holidays(), berlin.recurringHolidays(), berlin.safetyMargin());
        assertThatThrownBy(() -> KeptHistory.read(new SummaryInput(body[0], UnaryOperator.identity()), SCOPE,
                new NightlyWindows.Nights(tokyo), CONFIG)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("calendar's night");
    }
}
