package io.qatwatch.collector.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.StoreConfig;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;

/**
 * The stores the contract tests run on: the embedded SQLite file and PostgreSQL (the shared test server, a schema
 * per test). Parameterise a test with {@code @EnumSource(Database.Kind.class)} and open its store here.
 */
public final class StoreKinds {

    private StoreKinds() {
    }

    /** The config of a fresh, empty store of {@code kind} (SQLite under {@code dir}). */
    public static StoreConfig config(Database.Kind kind) throws Exception {
        if (kind == Database.Kind.SQLITE) {
            return StoreConfig.DEFAULTS;
        }
        assumeTrue(Postgres.installed(), "PostgreSQL is not installed (apt-get install postgresql; ./run-tests does)");
        return Postgres.shared().newStore();
    }

    /** A fresh, empty store of {@code kind}; SQLite under {@code dir}. */
    public static Database open(Database.Kind kind, Path dir) throws Exception {
        return open(config(kind), dir);
    }

    /** Opens the store {@code config} names (again, for a second connection to the same store). */
    public static Database open(StoreConfig config, Path dir) throws Exception {
        return Database.open(config, dir, new Secrets(Map.of()));
    }

    /** One number a query returns. */
    public static long scalar(Database db, String sql) throws Exception {
        return db.read(c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** One text a query returns. */
    public static String text(Database db, String sql) throws Exception {
        return db.read(c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getString(1);
            }
        });
    }

    /** Runs {@code sql} on the writer, behind the stores' backs. */
    public static int update(Database db, String sql) throws Exception {
        return db.write(c -> {
            try (Statement s = c.createStatement()) {
                return s.executeUpdate(sql);
            }
        });
    }
}
