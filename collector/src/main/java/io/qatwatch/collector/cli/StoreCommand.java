package io.qatwatch.collector.cli;

import io.qatwatch.collector.ConfigLoader;
import io.qatwatch.collector.config.ConfigException;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.dispatch.AlertStore;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.SliceLeases;
import io.qatwatch.collector.store.SqliteBackup;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.StoreCopy;
import io.qatwatch.collector.store.TokenStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code qatwatch collector store copy}: moves the embedded store into PostgreSQL; {@code store backup}: a consistent
 * copy of the embedded store while the collector runs.
 */
@Command(name = "store", mixinStandardHelpOptions = true, description = "Work on the collector's store.",
        subcommands = {StoreCommand.Copy.class, StoreCommand.Backup.class})
public final class StoreCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("Missing subcommand: copy or backup (see --help).");
        return 2;
    }

    /** Copies the SQLite store, running or not, into a new file, checked. */
    @Command(name = "backup", mixinStandardHelpOptions = true,
            description = {"Copy the embedded SQLite store (DIR/qatwatch.db) into FILE while the collector runs: one "
                    + "consistent moment (SQLite's VACUUM INTO), compacted, and checked before it is called good. "
                    + "FILE must not exist. To restore: stop the collector, put FILE in place of DIR/qatwatch.db "
                    + "(removing qatwatch.db-wal and qatwatch.db-shm), start it.",
                "A PostgreSQL store is backed up with PostgreSQL's own tools (pg_dump; docs/collector.md)."})
    static final class Backup implements Callable<Integer> {
        @Option(names = "--data", paramLabel = "DIR",
                description = "Collector data directory holding qatwatch.db (default: $QATWATCH_DATA or ./.qatwatch).")
        Path data;

        @Option(names = "--to", required = true, paramLabel = "FILE", description = "The new file to write.")
        Path to;

        @Option(names = "--config", paramLabel = "FILE", description = "Collector config; a PostgreSQL store: is refused.")
        Path config;

        @Override
        public Integer call() {
            if (config != null) {
                StoreConfig store;
                try {
                    store = ConfigLoader.load(config).store();
                } catch (ConfigException e) {
                    System.err.println("store backup: " + e.getMessage());
                    return 2;
                }
                if (store.postgresql()) {
                    System.err.println("store backup: the store is PostgreSQL (" + store.url() + "); back it up with "
                            + "pg_dump --format=custom (see docs/collector.md, Backing up the store)");
                    return 2;
                }
            }
            try {
                SqliteBackup.Copy copy = SqliteBackup.copy(DataDir.resolve(data).resolve("qatwatch.db"), to);
                System.out.printf("Backed up to %s: %d bytes in %d ms, checked (quick_check ok)%n", copy.file(),
                        copy.bytes(), copy.millis());
                copy.rows().forEach((table, n) -> System.out.printf("  %-12s %9d rows%n", table, n));
                return 0;
            } catch (Exception e) {
                System.err.println("store backup: " + e.getMessage());
                return 1;
            }
        }
    }

    /** Copies SQLite into PostgreSQL, idempotently, and prints what it copied. */
    @Command(name = "copy", mixinStandardHelpOptions = true,
            description = {"Copy the embedded SQLite store (DIR/qatwatch.db) into PostgreSQL: tokens, reports, hosts, "
                    + "instances, backups, alert state, notification log, silences. Rows the target has already are "
                    + "kept as they are, so an interrupted copy can be run again. Stop the collector first.",
                "The target comes from --config (its store: section) or --url and --user; the password from "
                    + "--password-file, else the variable store.passwordEnv names (QATWATCH_STORE_PASSWORD)."})
    static final class Copy implements Callable<Integer> {
        @Option(names = "--data", paramLabel = "DIR",
                description = "Collector data directory holding qatwatch.db (default: $QATWATCH_DATA or ./.qatwatch).")
        Path data;

        @Option(names = "--to", required = true, paramLabel = "KIND", description = "The target store: postgresql.")
        String to;

        @Option(names = "--config", paramLabel = "FILE", description = "Collector config whose store: section names the target.")
        Path config;

        @Option(names = "--url", paramLabel = "JDBC_URL", description = "jdbc:postgresql://HOST:5432/DATABASE")
        String url;

        @Option(names = "--user", paramLabel = "USER")
        String user;

        @Option(names = "--password-file", paramLabel = "FILE", description = "File holding the password (first line).")
        Path passwordFile;

        @Override
        public Integer call() throws Exception {
            if (!StoreConfig.POSTGRESQL.equals(to)) {
                System.err.println("store copy: --to must be postgresql, was " + to);
                return 2;
            }
            StoreConfig target;
            try {
                target = target();
            } catch (ConfigException e) {
                System.err.println("store copy: " + e.getMessage());
                return 2;
            }
            Path dir = DataDir.resolve(data);
            if (!java.nio.file.Files.exists(dir.resolve("qatwatch.db"))) {
                System.err.println("store copy: no store at " + dir.resolve("qatwatch.db") + " (give --data DIR)");
                return 1;
            }
            try (Database from = Database.open(dir);
                 Database into = Database.open(target, dir, Secrets.fromEnvironment())) {
                // the source's own migrations first, so an older file has every column; then the target's tables
                for (Database db : List.of(from, into)) {
                    new TokenStore(db);
                    new SqlReportStore(db);
                    new AlertStore(db).migrate();
                }
                new SliceLeases(into, "store-copy", Duration.ofSeconds(1)).migrate();
                List<StoreCopy.Count> counts = StoreCopy.copy(from, into);
                System.out.println("Copied " + from.where() + " into " + into.where() + ":");
                long copied = 0;
                for (StoreCopy.Count c : counts) {
                    System.out.printf("  %-24s %9d read %9d copied %9d there already%n", c.table(), c.read(), c.copied(),
                            c.read() - c.copied());
                    copied += c.copied();
                }
                System.out.println(copied == 0 ? "Nothing new: the target had every row." : copied + " rows copied.");
                return 0;
            }
        }

        private StoreConfig target() {
            StoreConfig base = config == null ? StoreConfig.DEFAULTS : ConfigLoader.load(config).store();
            StoreConfig t = new StoreConfig(StoreConfig.POSTGRESQL, url != null ? url : base.url(),
                    user != null ? user : base.user(), passwordFile != null ? passwordFile : base.passwordFile(),
                    base.passwordEnv(), Math.max(2, base.poolSize()));
            List<String> problems = new java.util.ArrayList<>();
            t.validate(problems);
            if (!problems.isEmpty()) {
                throw new ConfigException(String.join("; ", problems).replace("store.url", "--url (or store.url)")
                        .replace("store.user", "--user (or store.user)"));
            }
            return t;
        }
    }
}
