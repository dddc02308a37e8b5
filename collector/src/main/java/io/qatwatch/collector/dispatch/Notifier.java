package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Severity;
import io.vertx.core.Future;

/** One chat channel. Sends never block the event loop; a failure is a {@link Delivery}, not a failed future. */
public interface Notifier {

    /** The channel's configured name; keys its notification log. */
    String name();

    /** The least severe alert this channel hears. */
    Severity minSeverity();

    /** True when this channel hears alerts like {@code a} (its host groups or tags); every alert by default. */
    default boolean hears(io.qatwatch.collector.alert.Alert a) {
        return true;
    }

    /** Sends one notification. */
    Future<Delivery> send(Notification notification);
}
