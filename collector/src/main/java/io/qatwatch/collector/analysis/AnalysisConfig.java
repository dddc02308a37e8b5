package io.qatwatch.collector.analysis;

import io.qatwatch.collector.compression.VerdictThresholds;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.CreepSettings;
import io.qatwatch.collector.window.WindowSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the fleet's analysis needs from the configuration: the calendars and which hosts they apply to, what a
 * window counts, the creep fit, and the few rule thresholds that decide what is kept (agents silent after, spill
 * forecasts from, backups kept for the throughput baseline, the compression verdicts' thresholds). Built from the {@code alerts} section.
 *
 * @param calendars           business calendars by name
 * @param defaultCalendar     the calendar of hosts no group matches
 * @param baselineFulls       full backups per database kept for the throughput baseline
 * @param baselineMinSeconds  the shortest full that counts in that baseline
 * @param compression         when a difference between compression methods counts, and which backups are compared
 */
public record AnalysisConfig(Map<String, BusinessCalendar> calendars, String defaultCalendar,
        List<HostGroupConfig> hostGroups, WindowSettings windows, CreepSettings creep, int agentSilentMinutes,
        double spillMinPercentComplete, int baselineFulls, long baselineMinSeconds, VerdictThresholds compression) {

    public AnalysisConfig {
        calendars = Collections.unmodifiableMap(new LinkedHashMap<>(calendars));
        hostGroups = List.copyOf(hostGroups);
    }

    /** The calendars by name. */
    public Map<String, BusinessCalendar> businessCalendars() {
        return calendars;
    }

    /** The calendar of a host (and instance, may be null): the first matching group's, else the default. */
    public String calendarNameFor(String host, String instance, Set<String> tags) {
        HostGroupConfig g = hostGroupFor(host, instance, tags);
        return g == null ? defaultCalendar : g.calendar();
    }

    /** The first host group that matches a host (and instance, may be null), the one its calendar comes from; null if none. */
    public HostGroupConfig hostGroupFor(String host, String instance, Set<String> tags) {
        for (HostGroupConfig g : hostGroups) {
            if (g.matches(host, instance, tags)) {
                return g;
            }
        }
        return null;
    }
}
