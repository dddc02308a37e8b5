package io.qatwatch.collector.analysis;

import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.NightlyWindows;
import java.util.HashMap;
import java.util.Map;

/** What the alert stage works out once per business calendar for the whole fleet: its nights and its summaries' key. */
final class FleetCalendars {

    private final AnalysisConfig config;
    private final Map<String, BusinessCalendar> calendars;
    /** Each calendar's nights, resolved once for the whole fleet. */
    private final Map<String, NightlyWindows.Nights> nights = new HashMap<>();
    /** Each calendar's {@link InstanceSummaryCodec#configKey}. */
    private final Map<String, Long> configKeys = new HashMap<>();

    FleetCalendars(AnalysisConfig config) {
        this.config = config;
        this.calendars = config.businessCalendars();
    }

    /** The calendar's nights, resolved at its first use. */
    NightlyWindows.Nights nights(String calendar) {
        return nights.computeIfAbsent(calendar, c -> new NightlyWindows.Nights(calendars.get(c)));
    }

    /** The calendar's {@link InstanceSummaryCodec#configKey}, worked out at its first use. */
    long configKey(String calendar) {
        return configKeys.computeIfAbsent(calendar, c -> InstanceSummaryCodec.configKey(config, calendars.get(c)));
    }
}
