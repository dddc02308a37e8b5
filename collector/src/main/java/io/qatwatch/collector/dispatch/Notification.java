package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.dispatch.NotificationDecision.Reason;
import java.time.Instant;
import java.util.List;

/**
 * One message for one channel: a group's firing alerts and those that just resolved, why it is sent, and
 * the status page link.
 */
public record Notification(String groupKey, Reason reason, List<AlertRecord> firing, List<AlertRecord> resolved,
                           String statusPageUrl, Instant at) {

    public Notification {
        firing = List.copyOf(firing);
        resolved = List.copyOf(resolved);
    }

    /** The link to one alert on the status page. */
    public String link(AlertRecord a) {
        return statusPageUrl + (statusPageUrl.endsWith("/") ? "" : "/") + "#alert-" + a.id();
    }

    /** The link to the status page. */
    public String link() {
        return statusPageUrl;
    }
}
