package io.qatwatch.collector.influx;

import java.util.List;

/** Sends line-protocol points to one InfluxDB endpoint. Blocking; called only from the sink's worker thread. */
public interface InfluxWriter extends AutoCloseable {

    /**
     * Writes {@code lines} (nanosecond timestamps). Throws {@link RejectedException} when the server refused the
     * points themselves (retrying cannot help), any other exception when it could not be reached or failed.
     */
    void write(List<String> lines) throws Exception;

    /** Where it writes, for logs: URL and database or bucket, never a credential. */
    String describe();

    @Override
    default void close() {
    }

    /**
     * The server refused the points themselves (HTTP 400, 413, 422): retrying cannot help, they are dropped and
     * counted. Authentication and missing-database errors are retried, so fixing the config loses nothing.
     */
    final class RejectedException extends Exception {
        private static final long serialVersionUID = 1L;

        public RejectedException(String message) {
            super(message);
        }
    }
}
