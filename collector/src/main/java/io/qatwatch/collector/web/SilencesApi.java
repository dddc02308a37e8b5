package io.qatwatch.collector.web;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;

/** Silences behind {@code /api/v1/silences}: list, create with an expiry, end early. Implemented by the alert pipeline. */
public interface SilencesApi {

    /**
     * A silence request: matchers are patterns with {@code *} and {@code ?}; at least one is given.
     *
     * @param endsAt when the silence expires (required, in the future, at most 90 days ahead)
     * @param group  a host group the alert's host must be in, or null
     * @param tag    a tag the alert's host must carry ({@code key=value} or a bare key), or null
     */
    record Request(String rule, String host, String instance, String database, String comment, Instant endsAt,
                   String group, String tag) {
    }

    /** Silences in force at {@code now} (JSON-serialisable values). */
    List<?> active(Instant now);

    /** Adds a silence; fails with IllegalArgumentException when the request is not acceptable. */
    Future<?> create(Request request, String createdBy, Instant now);

    /** Ends a silence now; false when there is no such silence in force. */
    Future<Boolean> expire(String id, Instant now);
}
