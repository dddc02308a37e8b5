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

    /** The events of {@code all} that concern {@code database} (all when null). */
    public static DatabaseEventsJson of(String host, String instance, String database, Instant since, List<DatabaseEvent> all) {
        return new DatabaseEventsJson(host, instance, database, since, all.stream()
                .filter(e -> database == null || database.equals(e.database())).map(Event::of).toList());
    }
}
