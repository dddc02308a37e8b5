package io.qatwatch.collector;

import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.rule.AlertEvaluator;
import io.qatwatch.collector.analysis.WindowsJson;
import io.qatwatch.collector.dispatch.AlertService;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.WindowsView;
import java.util.List;

/** Adapts the alert service to the web layer's seams: {@code GET /api/v1/alerts} and the windows API. */
public final class AlertViews {

    private AlertViews() {
    }

    /** The active alerts, in Contract 2's shape (silenced ones included). */
    public static AlertsView alerts(AlertService service) {
        return () -> records(service.activeAlerts());
    }

    /** Active alerts in Contract 2's shape. */
    static List<AlertsView.ActiveAlert> records(List<AlertRecord> active) {
        return active.stream().map(r -> new AlertsView.ActiveAlert(r.id(), r.alert().rule(), r.alert().severity().label(),
                r.alert().host(), r.alert().instance(), r.alert().database(), r.alert().summary(), r.alert().details(),
                r.since())).toList();
    }

    /**
     * One instance's windows, trends and spill forecasts as of the latest evaluation (a JSON-ready map);
     * null when that evaluation did not see the instance.
     */
    public static WindowsView windows(AlertService service) {
        return (host, instance, now) -> {
            AlertEvaluator.Evaluation e = service.lastEvaluation();
            if (e == null) {
                return null;
            }
            var ia = e.analysis().instance(host, instance);
            // Plain maps and lists, so any JSON mapper (the web layer uses Jackson) writes them as they are.
            return ia.isEmpty() ? null
                    : io.qatwatch.protocol.ReportJson.mapper().readValue(WindowsJson.of(ia.get()).encode(), java.util.Map.class);
        };
    }
}
