package io.qatwatch.collector.web;

import io.qatwatch.collector.store.DatabaseEvent;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/v1/instances/{host}/{instance}/database-events} and
 * {@code GET /api/v1/databases/{host}/{instance}/{database}/events}: what happened to an instance's databases (or one
 * of them) since {@code since}, oldest first (issue 31).
 *
 * @param database null for the instance's route
 */
public record DatabaseEventsJson(String host, String instance, String database, Instant since, List<Event> events) {

    /** One event as the API writes it; {@code summary} is the line the status page shows. */
    public record Event(Instant at, String database, String kind, String severity, String summary, String before,
                        String after, Instant createdAt, String availabilityGroup) {

        static Event of(DatabaseEvent e) {
            return new Event(e.at(), e.database(), e.kind(), e.severity(), e.summary(), e.before(), e.after(), e.createdAt(),
                    e.availabilityGroup());
        }
    }

    /**
     * The events of {@code all} (oldest first) that concern {@code database} (all when null): those under its name, and,
     * before a rename to it, those under the name it had then; a database created later under an old name is another.
     */
    public static DatabaseEventsJson of(String host, String instance, String database, Instant since, List<DatabaseEvent> all) {
        if (database == null) {
            return new DatabaseEventsJson(host, instance, null, since, all.stream().map(Event::of).toList());
        }
        // each name the database had, with the instant it stopped having it (its rename)
        java.util.Map<String, Instant> names = new java.util.HashMap<>();
        names.put(database, Instant.MAX);
        java.util.ArrayDeque<Event> mine = new java.util.ArrayDeque<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            DatabaseEvent e = all.get(i);
            Instant until = names.get(e.database());
            if (until != null && e.at().isBefore(until)) {
                mine.addFirst(Event.of(e));
                if (DatabaseEvent.RENAMED.equals(e.kind())) {
                    names.remove(e.database());
                    names.put(e.before(), e.at());
                }
            }
        }
        return new DatabaseEventsJson(host, instance, database, since, List.copyOf(mine));
    }
}
