package io.qatwatch.collector.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Each host's {@link HostSlices slice} as a column of PostgreSQL's {@code hosts} table (issue 33), so that the alert
 * stage of each of several collectors reads its own slices' rows only: the migration that adds and fills it, and the
 * condition a read adds for a {@link HostSelection}. The collector's writers set the column from {@link HostSlices#of};
 * a trigger sets it, with the same CRC-32 in PL/pgSQL, for any writer that leaves it out (a collector of the previous
 * release during an upgrade, a copy): a host without its slice would be read by no collector.
 */
final class HostSliceColumn {

    static final String COMPONENT = "host-slices";

    /** CRC-32 (the IEEE polynomial, reflected, as {@link java.util.zip.CRC32}) of the name's UTF-8 bytes, mod 64. */
    static final List<String> STEPS = List.of("""
            CREATE FUNCTION host_slice(host text) RETURNS smallint LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
            DECLARE
              bytes bytea := convert_to(host, 'UTF8');
              crc bigint := 4294967295;
            BEGIN
              FOR i IN 0 .. length(bytes) - 1 LOOP
                crc := crc # get_byte(bytes, i);
                FOR k IN 1 .. 8 LOOP
                  crc := (crc >> 1) # (3988292384 * (crc & 1));
                END LOOP;
              END LOOP;
              RETURN ((crc # 4294967295) % 64)::smallint;
            END $$;
            ALTER TABLE hosts ADD COLUMN slice SMALLINT;
            UPDATE hosts SET slice = host_slice(name);
            ALTER TABLE hosts ALTER COLUMN slice SET NOT NULL;
            CREATE INDEX hosts_by_slice ON hosts(slice, name);
            CREATE FUNCTION hosts_slice() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              NEW.slice := host_slice(NEW.name);
              RETURN NEW;
            END $$;
            CREATE TRIGGER hosts_slice BEFORE INSERT ON hosts FOR EACH ROW WHEN (NEW.slice IS NULL)
              EXECUTE FUNCTION hosts_slice()""");

    /** The {@code hosts} rows of a selection; {@link #bind} binds its two arrays. */
    static final String HOSTS = "(slice = ANY(?) OR name = ANY(?))";

    private HostSliceColumn() {
    }

    /** Rows whose {@code column} names a host of the selection; {@link #bind} binds its two arrays. */
    static String hostIn(String column) {
        return column + " IN (SELECT name FROM hosts WHERE " + HOSTS + ")";
    }

    /** Binds a selection's slices and hosts at {@code at} and {@code at + 1}; returns the next parameter's index. */
    static int bind(PreparedStatement s, int at, HostSelection selection) throws SQLException {
        Connection c = s.getConnection();
        s.setArray(at, c.createArrayOf("int2", selection.slices().stream().map(Integer::shortValue).toArray()));
        s.setArray(at + 1, c.createArrayOf("text", selection.hosts().toArray()));
        return at + 2;
    }
}
