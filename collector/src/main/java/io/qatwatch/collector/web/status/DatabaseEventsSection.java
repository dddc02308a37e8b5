package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.esc;

import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.web.DatabaseEventsJson;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The database page's "Events" section: what happened to the database in the lookback period (it appeared, its recovery
 * model or replica role changed), each an informational line with its time, as the events API has them (issue 31).
 */
final class DatabaseEventsSection {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);

    private DatabaseEventsSection() {
    }

    /** The database's events from {@code since} on, as {@code GET /api/v1/databases/.../events} lists them. */
    static List<DatabaseEventsJson.Event> events(ReportStore store, String host, String instance, String database,
                                                 Instant since) throws Exception {
        return DatabaseEventsJson.of(host, instance, database, since, store.databaseEvents(host, instance, since)).events();
    }

    static void append(StringBuilder html, List<DatabaseEventsJson.Event> events, ZoneId zone, int lookbackDays) {
        html.append("<section id=\"events\"><h2>Events</h2>");
        if (events.isEmpty()) {
            html.append("<p class=\"muted\">Nothing changed in the last ").append(lookbackDays)
                    .append(" days: no appearance, recovery model or replica role change.</p></section>");
            return;
        }
        html.append("<ul class=\"events\">");
        for (DatabaseEventsJson.Event e : events) {
            html.append("<li class=\"event ").append(esc(e.kind())).append("\"><time datetime=\"").append(esc(e.at().toString()))
                    .append("\">").append(esc(WHEN.format(e.at().atZone(zone)))).append("</time> <span class=\"muted\">")
                    .append(esc(e.severity())).append("</span> ").append(esc(e.summary())).append("</li>");
        }
        html.append("</ul></section>");
    }
}
