package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.protocol.ReportJson;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;

/**
 * Binds and reads the nullable values the store's tables hold (SQL NULL for a Java null, both ways), the lists of host
 * names a query asks for, and the JSON sections.
 */
final class SqlValues {

    private SqlValues() {
    }

    /** Host names per {@code IN (...)} list: well under SQLite's limit on bound parameters. */
    static final int IN_CHUNK = 500;

    /** {@code host IN (?, ...)} for {@code hosts}, which {@link #bind} binds from the first parameter. */
    static String in(List<String> hosts) {
        return "host IN (" + "?,".repeat(hosts.size() - 1) + "?)";
    }

    /** Binds a statement's parameters: what a read built from clauses passes along with its SQL. */
    @FunctionalInterface
    interface Binds {
        void bind(PreparedStatement s) throws SQLException;
    }

    static void bind(PreparedStatement s, List<String> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            s.setString(i + 1, values.get(i));
        }
    }

    /**
     * The report's mapper without its check for duplicate keys, for the JSON sections the store holds and no other JSON:
     * the collector wrote them itself ({@link ReportSections}) from reports that ingest had checked ({@link ReportJson#parse}
     * refuses a duplicate key), so checking again only cost time: a restart reads every instance's sections (a profile
     * had these reads at 22 % of its evaluating thread). An agent's JSON is never read with it. A mapper of its own: an
     * {@code ObjectReader} without the feature still checks (Jackson's parser turns the check on when asked, never off).
     */
    private static final ObjectMapper STORED = storedMapper();

    private static ObjectMapper storedMapper() {
        ObjectMapper mapper = ReportJson.newMapper();
        mapper.getFactory().disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return mapper;
    }

    /** A JSON section the store wrote ({@link #STORED}), as the report's mapper reads it; null for SQL NULL. */
    static <T> T read(String json, Class<T> type) throws IOException {
        return json == null ? null : STORED.readValue(json, type);
    }

    /** A JSON list the store wrote ({@link #STORED}), as the report's mapper reads it; null for SQL NULL. */
    static <T> List<T> readList(String json, TypeReference<List<T>> type) throws IOException {
        return json == null ? null : STORED.readValue(json, type);
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
