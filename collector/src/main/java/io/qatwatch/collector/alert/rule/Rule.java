package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.FleetAnalysis;
import java.util.List;

/**
 * One alert rule: a function of the analysed fleet (time comes in with it). A rule may remember what it worked out from
 * objects that did not change between evaluations, as long as it gives what a fresh one would.
 */
@FunctionalInterface
public interface Rule {

    /** The alerts this rule finds now, with its thresholds from {@code rules}; empty when all is well. */
    List<Alert> evaluate(FleetAnalysis fleet, RulesConfig rules);
}
