package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import java.util.List;

/** One alert rule: a pure function of the analysed fleet (time comes in with it). */
@FunctionalInterface
public interface Rule {

    /** The alerts this rule finds now, with its thresholds from {@code rules}; empty when all is well. */
    List<Alert> evaluate(FleetAnalysis fleet, RulesConfig rules);
}
