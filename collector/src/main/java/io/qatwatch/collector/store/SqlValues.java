package io.qatwatch.collector.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;

/** Binds and reads the nullable values the store's tables hold: SQL NULL for a Java null, both ways. */
final class SqlValues {

    private SqlValues() {
    }

    static void setInteger(PreparedStatement s, int at, Integer value) throws SQLException {
        if (value == null) {
            s.setNull(at, Types.INTEGER);
        } else {
            s.setInt(at, value);
        }
    }

    static void setLong(PreparedStatement s, int at, Long value) throws SQLException {
        if (value == null) {
            s.setNull(at, Types.BIGINT);
        } else {
            s.setLong(at, value);
        }
    }

    static void setInstant(PreparedStatement s, int at, Instant value) throws SQLException {
        setLong(s, at, value == null ? null : value.toEpochMilli());
    }

    /** A flag as 0 or 1 (a {@code SMALLINT} on PostgreSQL, an {@code INTEGER} on SQLite), NULL when unknown. */
    static void setFlag(PreparedStatement s, int at, Boolean value) throws SQLException {
        setInteger(s, at, value == null ? null : value ? 1 : 0);
    }

    static Integer getInteger(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    static Long getLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static Instant getInstant(ResultSet rs, String column) throws SQLException {
        Long v = getLong(rs, column);
        return v == null ? null : Instant.ofEpochMilli(v);
    }

    static Boolean getFlag(ResultSet rs, String column) throws SQLException {
        Integer v = getInteger(rs, column);
        return v == null ? null : v != 0;
    }
}
