package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.FleetRow;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** One host the alert stage keeps: its row, what its head said last, its instances. */
final class HostSlot {
    FleetRow row;
    long sectionsSeq;
    Instant lastSeen;
    /** The tags its instances' calendars were last worked out for; null before the first refresh. */
    Set<String> tags;
    final Map<String, InstanceSlot> instances = new TreeMap<>();
}
