package io.qatwatch.collector.web;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * What people do to an alert through {@code /api/v1/alerts/{id}}: read it with its history, acknowledge it, end
 * the acknowledgement, add a note. Implemented by the alert pipeline. A future fails with {@link NoSuchAlert}
 * for an unknown id and with IllegalArgumentException for a request that cannot be honoured.
 */
public interface AlertActions {

    /** The id names no firing or recently resolved alert. */
    final class NoSuchAlert extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public NoSuchAlert(String message) {
            super(message);
        }
    }

    /** The alert as {@code /api/v1/alerts} shows it, plus {@code resolvedAt} and its {@code history}. */
    Future<JsonObject> alert(String id, Instant now);

    /** Acknowledges a firing alert; {@code expiresAt} and {@code note} may be null. Answers the acknowledgement. */
    Future<JsonObject> acknowledge(String id, String by, String note, Instant expiresAt, Instant now);

    /** Ends the acknowledgement now; false when it had none. */
    Future<Boolean> unacknowledge(String id, String by, Instant now);

    /** Adds a note to the alert's history; answers the note. */
    Future<JsonObject> note(String id, String by, String text, Instant now);
}
