package io.qatwatch.tds;

/** One result column: its name and SQL Server type. */
public record Column(String name, SqlType type) {

    /** A column from its name and the T-SQL spelling of its type, e.g. {@code col("backup_size", "numeric(20,0)")}. */
    public static Column col(String name, String type) {
        return new Column(name, SqlType.parse(type));
    }

    /** Parses {@code "name type"}, the compact form fixtures use, e.g. {@code "backup_set_id int"}. */
    public static Column parse(String nameAndType) {
        String s = nameAndType.trim();
        int space = s.indexOf(' ');
        if (space <= 0) {
            throw new IllegalArgumentException("column '" + nameAndType + "' must be written as \"name type\", e.g. \"backup_set_id int\"");
        }
        return col(s.substring(0, space), s.substring(space + 1));
    }
}
