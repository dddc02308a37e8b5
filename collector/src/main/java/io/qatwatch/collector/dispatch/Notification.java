package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.dispatch.NotificationDecision.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One message for one channel: a group's firing alerts and those that just resolved, why it is sent, and
 * the status page link.
 *
 * @param remarks  per alert id, lines that say what changed in its life (a forecast moved earlier, an
 *                 acknowledgement, flapping); shown under the alert
 * @param threadId the chat thread this message replies in (what the channel answered for the group's first
 *                 message), or null to start one
 */
public record Notification(String groupKey, Reason reason, List<AlertRecord> firing, List<AlertRecord> resolved,
                           String statusPageUrl, Instant at, Map<String, List<String>> remarks, String threadId) {

    public Notification {
        firing = List.copyOf(firing);
        resolved = List.copyOf(resolved);
        remarks = remarks == null ? Map.of() : Map.copyOf(remarks);
    }

    /** A message with no remarks that starts its own thread. */
    public Notification(String groupKey, Reason reason, List<AlertRecord> firing, List<AlertRecord> resolved,
            String statusPageUrl, Instant at) {
        this(groupKey, reason, firing, resolved, statusPageUrl, at, Map.of(), null);
    }

    /** The link to one alert on the status page. */
    public String link(AlertRecord a) {
        return statusPageUrl + (statusPageUrl.endsWith("/") ? "" : "/") + "#alert-" + a.id();
    }

    /** The link to the status page. */
    public String link() {
        return statusPageUrl;
    }

    /** The remarks on one alert, oldest concern first; empty when there are none. */
    public List<String> remarks(AlertRecord a) {
        return remarks.getOrDefault(a.id(), List.of());
    }

    /** True when the message replies in an existing thread. */
    public boolean reply() {
        return threadId != null;
    }
}
