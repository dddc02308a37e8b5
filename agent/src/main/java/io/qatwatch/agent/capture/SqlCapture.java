package io.qatwatch.agent.capture;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.microsoft.sqlserver.jdbc.SQLServerError;
import com.microsoft.sqlserver.jdbc.SQLServerException;
import io.qatwatch.agent.probe.sqlserver.SqlRecorder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Every answer the SQL Server probe read, with its column types, written as a TDS test server scenario
 * ({@code qatwatch tds-server --scenario}). An answer is keyed by its query's file name, the marker the test
 * server answers by; a query sent again with other text (another page) is keyed by its whole text. Types the
 * test server does not speak are sent as the nearest one it does, and the scenario's notes say so.
 */
final class SqlCapture implements SqlRecorder {

    /** The test server's longest text column; longer values are cut (and noted). */
    private static final int MAX_NVARCHAR = 4000;
    private static final int MAX_BYTES = 8000;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.WRITE_BIGDECIMAL_AS_PLAIN);

    private sealed interface Answer permits Rows, Failed {
    }

    private record Rows(List<String> columns, List<List<Object>> rows) implements Answer {
    }

    private record Failed(List<ServerError> errors, Long delayMillis) implements Answer {
    }

    /** One message of a failed batch, as the ERROR token carried it. */
    private record ServerError(int number, int state, int severity, String message) {
    }

    private record Entry(String sql, Answer answer) {
    }

    /** A result set being read: which query, and the rows seen so far. */
    private interface Recorded {
        Recording recording();
    }

    private record Recording(String query, String sql, List<String> columns, List<List<Object>> rows) {
    }

    private final Map<String, Entry> answers = new LinkedHashMap<>();
    private final Set<String> notes = new LinkedHashSet<>();

    boolean isEmpty() {
        return answers.isEmpty();
    }

    @Override
    public ResultSet reading(String query, String sql, ResultSet rows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            String name = meta.getColumnLabel(i);
            columns.add((name == null || name.isBlank() ? "column_" + i : name) + " " + type(query, meta, i));
        }
        Recording recording = new Recording(query, sql, columns, new ArrayList<>());
        return (ResultSet) Proxy.newProxyInstance(SqlCapture.class.getClassLoader(), new Class<?>[] {ResultSet.class, Recorded.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Recorded.class) {
                        return recording;
                    }
                    try {
                        Object result = method.invoke(rows, args);
                        if (method.getName().equals("next") && Boolean.TRUE.equals(result)) {
                            recording.rows().add(row(rows, columns.size(), query));
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public void done(ResultSet rows) throws SQLException {
        if (!(rows instanceof Recorded recorded)) {
            return;
        }
        while (rows.next()) {
            // the rest of the rows, which the probe did not need, belong to the answer all the same
        }
        Recording r = recorded.recording();
        put(r.query(), r.sql(), new Rows(r.columns(), r.rows()));
    }

    @Override
    public void failed(String query, String sql, SQLException e, int queryTimeoutSeconds) {
        if (e instanceof SQLTimeoutException) {
            // answered later than the driver waits, so that it gives up again
            put(query, sql, new Failed(List.of(new ServerError(0, 1, 16, "answered after the query timeout")),
                    (queryTimeoutSeconds + 30) * 1000L));
            return;
        }
        // one failure may raise several messages (Msg 300 then Msg 297): the driver chains them
        List<ServerError> errors = new ArrayList<>();
        for (SQLException x = e; x != null && errors.size() < 10; x = x.getNextException()) {
            SQLServerError server = x instanceof SQLServerException s ? s.getSQLServerError() : null;
            errors.add(server != null
                    ? new ServerError(server.getErrorNumber(), server.getErrorState(), server.getErrorSeverity(), server.getErrorMessage())
                    : new ServerError(x.getErrorCode() == 0 ? 50000 : x.getErrorCode(), 1, 16, x.getMessage()));
        }
        put(query, sql, new Failed(errors, null));
    }

    private void put(String query, String sql, Answer answer) {
        Entry first = answers.get(query);
        answers.put(first == null || first.sql().equals(sql) ? query : sql, new Entry(sql, answer));
    }

    private List<Object> row(ResultSet rows, int columns, String query) throws SQLException {
        List<Object> row = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
            row.add(value(rows.getObject(i), query));
        }
        return row;
    }

    /** A value as the scenario format writes it: numbers, text, booleans, null; datetimes as local ISO text; binary as 0x hex. */
    private Object value(Object v, String query) {
        if (v == null || v instanceof Number || v instanceof Boolean) {
            return v;
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime().toString();
        }
        if (v instanceof LocalDateTime t) {
            return t.toString();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().atStartOfDay().toString();
        }
        if (v instanceof byte[] b) {
            return "0x" + HexFormat.of().withUpperCase().formatHex(b, 0, Math.min(b.length, MAX_BYTES));
        }
        String text = v.toString();
        if (text.length() > MAX_NVARCHAR) {
            notes.add(query + ": a value longer than " + MAX_NVARCHAR + " characters was cut to " + MAX_NVARCHAR);
            return text.substring(0, MAX_NVARCHAR);
        }
        return text;
    }

    /** The column's type in the spelling the test server parses, the nearest it speaks when it does not speak this one. */
    private String type(String query, ResultSetMetaData meta, int i) throws SQLException {
        String name = meta.getColumnTypeName(i).toLowerCase(Locale.ROOT);
        int precision = meta.getPrecision(i);
        int scale = meta.getScale(i);
        String type = switch (name) {
            case "int", "bigint", "smallint", "tinyint", "bit", "real", "float", "uniqueidentifier", "datetime" -> name;
            case "decimal", "numeric" -> name + "(" + precision + "," + scale + ")";
            case "money" -> "decimal(19,4)";
            case "smallmoney" -> "decimal(10,4)";
            case "nvarchar", "sysname" -> "nvarchar(" + length(precision, MAX_NVARCHAR) + ")";
            case "varchar" -> "varchar(" + length(precision, MAX_BYTES) + ")";
            case "char" -> "char(" + length(precision, MAX_BYTES) + ")";
            case "varbinary", "binary", "timestamp" -> "varbinary(" + length(precision, MAX_BYTES) + ")";
            case "nchar" -> "nvarchar(" + length(precision, MAX_NVARCHAR) + ")";
            case "datetime2", "smalldatetime", "date" -> "datetime";
            default -> "nvarchar(" + MAX_NVARCHAR + ")";
        };
        if (!type.startsWith(name)) {
            notes.add(query + ": column " + meta.getColumnLabel(i) + " is " + name + (precision > 0 ? "(" + precision + ")" : "")
                    + " on the server, sent as " + type + " by the test server");
        }
        return type;
    }

    private static int length(int precision, int max) {
        return precision <= 0 || precision > max ? max : precision;
    }

    /** The scenario file, each text value passed through {@code strings} (the anonymiser, or unchanged). */
    String scenario(String name, String description, String capturedBy, UnaryOperator<String> strings) {
        StringBuilder out = new StringBuilder("{\n");
        field(out, "scenario", name);
        field(out, "description", description);
        field(out, "capturedBy", capturedBy);
        field(out, "productVersion", productVersion(strings));
        out.append("  \"notes\": ").append(json(List.copyOf(notes))).append(",\n");
        out.append("  \"queries\": {");
        String separator = "\n";
        for (Map.Entry<String, Entry> e : answers.entrySet()) {
            out.append(separator).append("    ").append(json(strings.apply(e.getKey()))).append(": ");
            separator = ",\n";
            if (e.getValue().answer() instanceof Failed f) {
                out.append('{');
                if (f.delayMillis() != null) {
                    out.append("\"delayMillis\": ").append(f.delayMillis()).append(", ");
                }
                List<Map<String, Object>> errors = new ArrayList<>();
                for (ServerError x : f.errors()) {
                    Map<String, Object> error = new LinkedHashMap<>();
                    error.put("number", x.number());
                    error.put("state", x.state());
                    error.put("severity", x.severity());
                    error.put("message", strings.apply(x.message()));
                    errors.add(error);
                }
                out.append(errors.size() == 1 ? "\"error\": " + json(errors.get(0)) : "\"errors\": " + json(errors)).append('}');
            } else if (e.getValue().answer() instanceof Rows r) {
                out.append("{\n      \"columns\": ").append(json(r.columns())).append(",\n      \"rows\": [");
                String rowSeparator = "\n";
                for (List<Object> row : r.rows()) {
                    List<Object> shown = row.stream().map(v -> v instanceof String s ? strings.apply(s) : v).toList();
                    out.append(rowSeparator).append("        ").append(json(shown));
                    rowSeparator = ",\n";
                }
                out.append(r.rows().isEmpty() ? "]\n    }" : "\n      ]\n    }");
            }
        }
        out.append("\n  }\n}\n");
        return out.toString();
    }

    private String productVersion(UnaryOperator<String> strings) {
        Entry server = answers.get("server-properties.sql");
        if (server != null && server.answer() instanceof Rows r && !r.rows().isEmpty()) {
            int column = r.columns().stream().map(c -> c.substring(0, c.indexOf(' '))).toList().indexOf("product_version");
            if (column >= 0 && r.rows().get(0).get(column) != null) {
                return strings.apply(r.rows().get(0).get(column).toString());
            }
        }
        return null;
    }

    private static void field(StringBuilder out, String name, String value) {
        if (value != null) {
            out.append("  ").append(json(name)).append(": ").append(json(value)).append(",\n");
        }
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value, e);
        }
    }
}
