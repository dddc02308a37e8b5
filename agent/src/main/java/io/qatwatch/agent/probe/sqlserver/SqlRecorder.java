package io.qatwatch.agent.probe.sqlserver;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Sees every query's answer as the probe reads it, so that {@code probe --capture} can write it down as a TDS
 * scenario; {@link #NONE} sees nothing and changes nothing.
 */
public interface SqlRecorder {

    SqlRecorder NONE = new SqlRecorder() {
        @Override
        public ResultSet reading(String query, String sql, ResultSet rows) {
            return rows;
        }

        @Override
        public void done(ResultSet rows) {
        }

        @Override
        public void failed(String query, String sql, SQLException e, int queryTimeoutSeconds) {
        }
    };

    /** The result set of {@code query} (its file name) sent as {@code sql}; the probe reads what is returned instead. */
    ResultSet reading(String query, String sql, ResultSet rows) throws SQLException;

    /** The probe has read what it wanted of {@code rows} (as returned by {@link #reading}); the rest is the recorder's. */
    void done(ResultSet rows) throws SQLException;

    /** The query failed, on the server or while its rows were read. */
    void failed(String query, String sql, SQLException e, int queryTimeoutSeconds);
}
