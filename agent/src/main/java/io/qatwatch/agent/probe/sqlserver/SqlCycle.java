package io.qatwatch.agent.probe.sqlserver;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/** One read of an instance as the readers of its sections see it: run a query, and say how each probe went. */
interface SqlCycle {

    /** Reads a result set into a value. */
    @FunctionalInterface
    interface RowsReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Runs {@code query} with its numbers and database-named tables filled in (see {@link SqlQuery#text(Map, Map)}). */
    <T> T execute(SqlQuery query, Map<String, Long> numbers, Map<String, String> tables, RowsReader<T> reader) throws SQLException;

    /** Records probe {@code probe} (the query's short name) as having worked. */
    void ok(String probe, long startNanos);

    /** Records probe {@code probe} as failed with the driver's error, explained with its grant. */
    void fail(String probe, SqlQuery query, SQLException e, long startNanos);

    /** Records probe {@code probe} as failed for a reason the agent found itself. */
    void problem(String probe, long startNanos, String error, String hint);

    /** Where a query ran, for messages: the instance, its redacted URL and the query. */
    String where(SqlQuery query);
}
