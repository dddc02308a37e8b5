package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.analysis.AnalysisConfig;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every enabled rule over the fleet: the evaluate stage; a failing rule is reported, not fatal. Its built-in rules
 * remember between evaluations what they worked out from objects that did not change (each gives what a fresh evaluation
 * would), so one evaluator's evaluations are serialised, and a fresh evaluation to compare with is {@link #anew()}'s.
 */
public final class AlertEvaluator {

    private final AnalysisConfig analysisConfig;
    private final RulesConfig rulesConfig;
    private final Map<String, Rule> rules;
    /** Whether {@link #rules} are the built-in ones, made by {@link Rules#enabled}. */
    private final boolean builtIn;

    public AlertEvaluator(AnalysisConfig analysisConfig, RulesConfig rulesConfig) {
        this(analysisConfig, rulesConfig, Rules.enabled(rulesConfig), true);
    }

    /** Runs {@code rules} (name to rule, in order) instead of the enabled built-in ones: for scripted scenarios. */
    public AlertEvaluator(AnalysisConfig analysisConfig, RulesConfig rulesConfig, Map<String, Rule> rules) {
        this(analysisConfig, rulesConfig, rules, false);
    }

    private AlertEvaluator(AnalysisConfig analysisConfig, RulesConfig rulesConfig, Map<String, Rule> rules, boolean builtIn) {
        this.analysisConfig = analysisConfig;
        this.rulesConfig = rulesConfig;
        this.rules = new LinkedHashMap<>(rules);
        this.builtIn = builtIn;
    }

    /**
     * An evaluator of the same configuration that remembers nothing yet: built-in rules made anew, rules given by the
     * caller shared.
     */
    public AlertEvaluator anew() {
        return builtIn ? new AlertEvaluator(analysisConfig, rulesConfig) : new AlertEvaluator(analysisConfig, rulesConfig, rules);
    }

    /** The fleet analysed as of {@code now}, from scratch. */
    public FleetAnalysis analyse(FleetState fleet, Instant now) {
        return new FleetAnalysis(fleet, analysisConfig, now);
    }

    /**
     * The outcome of one evaluation.
     *
     * @param ruleErrors rule name to the error that stopped it; its alerts keep their last state
     */
    public record Evaluation(Instant at, FleetAnalysis analysis, List<Alert> alerts, Map<String, String> ruleErrors) {
    }

    /** Evaluates all rules as of {@code now}. */
    public Evaluation evaluate(FleetState fleet, Instant now) {
        return evaluate(analyse(fleet, now));
    }

    /** Evaluates all rules over an analysed fleet, as of its {@link FleetAnalysis#now()}. */
    public synchronized Evaluation evaluate(FleetAnalysis analysis) {
        Instant now = analysis.now();
        List<Alert> alerts = new ArrayList<>();
        Map<String, String> errors = new LinkedHashMap<>();
        rules.forEach((name, rule) -> {
            try {
                alerts.addAll(rule.evaluate(analysis, rulesConfig));
            } catch (RuntimeException e) {
                errors.put(name, e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        });
        return new Evaluation(now, analysis, alerts, errors);
    }
}
