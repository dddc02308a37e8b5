package io.qatwatch.collector.notify;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.HostDirectory;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.dispatch.Notifier;
import io.vertx.core.Future;
import java.util.List;

/**
 * A channel that hears only the alerts of some hosts: those in its {@code hostGroups} or carrying one of its
 * {@code tags} (and alerts of no host, which concern every channel). Sends through the channel it wraps.
 */
public final class RoutedNotifier implements Notifier {

    private final Notifier channel;
    private final List<String> hostGroups;
    private final List<String> tags;

    public RoutedNotifier(Notifier channel, List<String> hostGroups, List<String> tags) {
        this.channel = channel;
        this.hostGroups = List.copyOf(hostGroups);
        this.tags = List.copyOf(tags);
    }

    @Override
    public String name() {
        return channel.name();
    }

    @Override
    public Severity minSeverity() {
        return channel.minSeverity();
    }

    @Override
    public boolean hears(Alert a, HostDirectory hosts) {
        if (a.host() == null) {
            return true;
        }
        String group = hosts.group(a.host());
        if (group != null && hostGroups.stream().anyMatch(group::equalsIgnoreCase)) {
            return true;
        }
        return tags.stream().anyMatch(t -> HostGroupConfig.tagMatches(t, hosts.tags(a.host())));
    }

    @Override
    public Future<Delivery> send(Notification notification) {
        return channel.send(notification);
    }
}
