package io.qatwatch.demo;

import io.qatwatch.tds.Column;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns an agent query returns, as its {@code .sql} file's header lists them ({@code -- Columns: name type,
 * ...}): the simulated servers answer with exactly those, so a query that gains a column is answered without a
 * change here (the column is NULL until the demo fills it).
 */
final class QueryColumns {

    private static final Pattern ITEM = Pattern.compile("^(\\w+)\\s+([a-z0-9]+(?:\\([0-9, ]+\\))?)");

    private QueryColumns() {
    }

    /** The columns of the agent's {@code /sqlserver/<query>} resource. */
    static List<Column> of(String query) {
        String resource = "/sqlserver/" + query;
        try (InputStream in = QueryColumns.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the agent jar has no " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The {@code -- Columns:} header and its continuation lines (comment lines indented past the label). */
    static List<Column> parse(String sql, String source) {
        StringBuilder spec = null;
        for (String line : sql.split("\n")) {
            if (spec == null) {
                if (line.startsWith("-- Columns:")) {
                    spec = new StringBuilder(line.substring("-- Columns:".length()));
                }
            } else if (line.matches("--\\s{5,}\\S.*")) {
                spec.append(' ').append(line.substring(2));
            } else {
                break;
            }
        }
        if (spec == null) {
            throw new IllegalStateException(source + " has no '-- Columns:' header");
        }
        List<Column> columns = new ArrayList<>();
        // split at commas outside parentheses: numeric(20,0) is one type
        for (String item : spec.toString().split(",(?![^()]*\\))")) {
            Matcher m = ITEM.matcher(item.strip());
            if (!m.find()) {
                throw new IllegalStateException(source + ": cannot read the column '" + item.strip() + "'");
            }
            columns.add(Column.col(m.group(1), m.group(2)));
        }
        return columns;
    }
}
