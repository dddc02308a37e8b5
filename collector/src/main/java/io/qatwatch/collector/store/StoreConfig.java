package io.qatwatch.collector.store;

import java.nio.file.Path;
import java.util.List;

/**
 * Where the collector keeps its state ({@code store:}): the embedded SQLite file under the data directory, or one
 * PostgreSQL database that several collectors share (docs/scaling.md).
 *
 * @param kind         {@code sqlite} (default) or {@code postgresql}
 * @param url          PostgreSQL: {@code jdbc:postgresql://host:5432/database}
 * @param user         PostgreSQL: the login
 * @param passwordFile PostgreSQL: file holding the password (its first line); else {@code passwordEnv}
 * @param passwordEnv  PostgreSQL: environment variable holding the password when there is no file
 * @param poolSize     PostgreSQL: most connections this collector opens
 */
public record StoreConfig(String kind, String url, String user, Path passwordFile, String passwordEnv, int poolSize) {

    public static final String SQLITE = "sqlite";
    public static final String POSTGRESQL = "postgresql";

    /** The embedded default. */
    public static final StoreConfig DEFAULTS = new StoreConfig(SQLITE, null, null, null, "QATWATCH_STORE_PASSWORD", 8);

    /** A PostgreSQL store at {@code url} as {@code user}, the password in {@code passwordEnv} (tests, the copy command). */
    public static StoreConfig postgresql(String url, String user, Path passwordFile, String passwordEnv, int poolSize) {
        return new StoreConfig(POSTGRESQL, url, user, passwordFile, passwordEnv, poolSize);
    }

    public boolean postgresql() {
        return POSTGRESQL.equals(kind);
    }

    /** This section with what the file left out taken from the defaults. */
    public StoreConfig withDefaults() {
        return new StoreConfig(kind == null ? DEFAULTS.kind : kind, url, user, passwordFile,
                passwordEnv == null ? DEFAULTS.passwordEnv : passwordEnv, poolSize == 0 ? DEFAULTS.poolSize : poolSize);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (!SQLITE.equals(kind) && !POSTGRESQL.equals(kind)) {
            problems.add("store.kind: must be sqlite (the embedded default) or postgresql (several collectors), was " + kind);
            return;
        }
        if (!postgresql()) {
            return;
        }
        if (url == null || !url.startsWith("jdbc:postgresql://")) {
            problems.add("store.url: required with kind postgresql, as jdbc:postgresql://HOST:5432/DATABASE, was " + url);
        } else if (url.toLowerCase(java.util.Locale.ROOT).contains("password=")) {
            problems.add("store.url: must not carry the password; put it in the file store.passwordFile names");
        }
        if (user == null || user.isBlank()) {
            problems.add("store.user: required with kind postgresql (the PostgreSQL login)");
        }
        if (poolSize < 2 || poolSize > 200) {
            problems.add("store.poolSize: must be 2..200, was " + poolSize);
        }
    }
}
