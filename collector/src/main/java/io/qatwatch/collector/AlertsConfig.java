package io.qatwatch.collector;

import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.alert.rule.RulesConfig;
import io.qatwatch.collector.analysis.AnalysisConfig;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.config.ConfigException;
import io.qatwatch.collector.dispatch.PipelineConfig;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.collector.window.WindowSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code alerts} section of the collector configuration: calendars, host groups, window settings,
 * rules, pipeline and channels. Unset keys take defaults in code; {@link #validate()} names the key of
 * every problem (e.g. {@code alerts.channels[0].url}).
 *
 * @param defaultCalendar the calendar of hosts no group matches; the first calendar when unset
 */
public record AlertsConfig(
        List<CalendarConfig> calendars,
        String defaultCalendar,
        List<HostGroupConfig> hostGroups,
        WindowSettings windows,
        RulesConfig rules,
        PipelineConfig pipeline,
        List<ChannelConfig> channels) {

    /** Everything default: the built-in calendar, all rules on, no channels. */
    public static final AlertsConfig DEFAULTS = new AlertsConfig(null, null, null, null, null, null, null);

    public AlertsConfig {
        calendars = calendars == null || calendars.isEmpty() ? List.of(CalendarConfig.builtIn()) : List.copyOf(calendars);
        defaultCalendar = defaultCalendar == null ? calendars.get(0).name() : defaultCalendar;
        hostGroups = hostGroups == null ? List.of() : List.copyOf(hostGroups);
        windows = windows == null ? WindowSettings.DEFAULTS : windows;
        rules = rules == null ? RulesConfig.DEFAULTS : rules;
        pipeline = pipeline == null ? new PipelineConfig(null, null, null, null, null, null, null, null) : pipeline;
        channels = channels == null ? List.of() : List.copyOf(channels);
    }

    /** Checks the whole section; throws one exception listing every problem with its key. */
    public AlertsConfig validate() {
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < calendars.size(); i++) {
            CalendarConfig c = calendars.get(i);
            c.validate("alerts.calendars[" + i + "]", problems);
            if (c.name() != null && !names.add(c.name())) {
                problems.add("alerts.calendars[" + i + "].name: '" + c.name() + "' is used twice");
            }
        }
        if (!names.contains(defaultCalendar)) {
            problems.add("alerts.defaultCalendar: '" + defaultCalendar + "' is not a calendar name; known: " + names);
        }
        for (int i = 0; i < hostGroups.size(); i++) {
            HostGroupConfig g = hostGroups.get(i);
            if (!names.contains(g.calendar())) {
                problems.add("alerts.hostGroups[" + i + "].calendar: '" + g.calendar() + "' is not a calendar name; known: " + names);
            }
            if (g.hosts().isEmpty() && g.instances().isEmpty() && g.tags().isEmpty()) {
                problems.add("alerts.hostGroups[" + i + "]: matches nothing; give hosts, instances or tags");
            }
            if (g.rtoMinutes() != null && g.rtoMinutes() < 1) {
                problems.add("alerts.hostGroups[" + i + "].rtoMinutes: must be at least 1 (minutes), got " + g.rtoMinutes()
                        + "; leave it out for no restore-time goal");
            }
        }
        if (windows.lookbackDays() < 7) {
            problems.add("alerts.windows.lookbackDays: must be at least 7, got " + windows.lookbackDays());
        }
        rules.validate("alerts.rules", problems);
        if (rules.restoreUntested().enabled() && rules.restoreUntested().maxAgeDays() > windows.lookbackDays()) {
            problems.add("alerts.rules.restoreUntested.maxAgeDays: at most windows.lookbackDays (" + windows.lookbackDays()
                    + "), the restores the alert stage keeps; got " + rules.restoreUntested().maxAgeDays());
        }
        pipeline.validate("alerts.pipeline", problems);
        Set<String> channelNames = new HashSet<>();
        Set<String> groupNames = new HashSet<>();
        hostGroups.forEach(g -> groupNames.add(String.valueOf(g.name()).toLowerCase(java.util.Locale.ROOT)));
        for (int i = 0; i < channels.size(); i++) {
            channels.get(i).validate("alerts.channels[" + i + "]", problems);
            List<String> routed = channels.get(i).hostGroups();
            for (int j = 0; j < routed.size(); j++) {
                if (!groupNames.contains(String.valueOf(routed.get(j)).toLowerCase(java.util.Locale.ROOT))) {
                    problems.add("alerts.channels[" + i + "].hostGroups[" + j + "]: '" + routed.get(j)
                            + "' is not a host group name; known: " + hostGroups.stream().map(HostGroupConfig::name).toList());
                }
            }
            if (channels.get(i).name() != null && !channelNames.add(channels.get(i).name())) {
                problems.add("alerts.channels[" + i + "].name: '" + channels.get(i).name() + "' is used twice; names key the notification log");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException("invalid alerts configuration", problems);
        }
        return this;
    }

    /** The evaluate stage over this section's analysis and rules; call after {@link #validate()}. */
    public AlertEvaluator evaluator() {
        return new AlertEvaluator(analysis(), rules);
    }

    /** What the fleet's analysis takes from this section; call after {@link #validate()}. */
    public AnalysisConfig analysis() {
        Map<String, BusinessCalendar> byName = new LinkedHashMap<>();
        calendars.forEach(c -> byName.put(c.name(), c.toCalendar()));
        return new AnalysisConfig(byName, defaultCalendar, hostGroups, windows, rules.backupWindowCreep().settings(),
                rules.agentSilent().silentMinutes(), rules.backupWindowSpillForecast().minPercentComplete(),
                Math.max(rules.backupThroughputDrop().baselineBackups() + 1, 14),
                rules.backupThroughputDrop().minDurationMinutes() * 60L, rules.compressionVerdicts());
    }
}
