package io.qatwatch.collector.cli;

import io.qatwatch.collector.ConfigLoader;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.TokenStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code qatwatch collector token add|list|revoke}: agent tokens and the people's tokens (read, operator, admin), in
 * the store every command finds the same way.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Manage tokens: one agent token per host; read, operator and admin tokens for people and tools.",
        subcommands = {TokenCommand.Add.class, TokenCommand.ListTokens.class, TokenCommand.Revoke.class})
public final class TokenCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("Missing subcommand: add, list or revoke (see --help).");
        return 2;
    }

    /** A command's work on the open store. */
    @FunctionalInterface
    interface Work {
        int run(TokenStore tokens, String store) throws SQLException;
    }

    /** Options every token subcommand shares, and how it opens the store. */
    static class Common {
        @Option(names = "--data", paramLabel = "DIR",
                description = "Data directory (default: $QATWATCH_DATA, else ./.qatwatch). The store is DIR/qatwatch.db,"
                        + " the one 'qatwatch collector' and 'qatwatch up' use with the same directory.")
        Path data;

        @Option(names = "--config", paramLabel = "FILE",
                description = "Collector config: with store.kind postgresql the tokens are in that database.")
        Path config;

        /**
         * Runs {@code work} on the store; {@code create}: a missing store is created (enrolment before the collector
         * ever started), else it is an error. Every failure says which store and what to do, on stderr, with exit 1.
         */
        int withStore(String command, boolean create, Work work) {
            Path dir = DataDir.resolve(data);
            StoreConfig shared;
            try {
                shared = config == null ? StoreConfig.DEFAULTS : ConfigLoader.load(config).store();
            } catch (RuntimeException e) {
                System.err.println(command + ": " + e.getMessage());
                return 2;
            }
            if (shared.postgresql()) {
                // the collectors' shared database: it exists once a collector or 'store copy' created the tables
                try (Database db = Database.open(shared, dir, Secrets.fromEnvironment())) {
                    return work.run(new TokenStore(db), db.where());
                } catch (SQLException | RuntimeException e) {
                    System.err.println(command + ": " + e.getMessage());
                    return 1;
                }
            }
            Optional<String> wrongUser = DataDir.wrongUser(dir, System.getProperty("user.name"));
            if (wrongUser.isPresent()) {
                System.err.println(command + ": " + wrongUser.get());
                return 1;
            }
            boolean existed = Files.exists(DataDir.store(dir));
            if (!existed && !create) {
                System.err.println(command + ": there is no store yet: " + DataDir.describe(dir) + ". 'qatwatch collector"
                        + " token add NAME' creates it, and so does the first start of the collector with that data directory.");
                return 1;
            }
            try (Database db = Database.open(dir)) {
                if (!existed) {
                    System.err.println(command + ": created " + DataDir.describe(dir) + ". Start the collector with the same"
                            + " data directory ('qatwatch up', or 'qatwatch collector --data " + dir + "') so that it accepts the token.");
                }
                return work.run(new TokenStore(db), DataDir.store(dir).toString());
            } catch (SQLException | RuntimeException e) {
                System.err.println(command + ": " + DataDir.whatToDo(dir, e));
                return 1;
            }
        }
    }

    /** At most one role flag; none issues an agent token. */
    static final class Role {
        @Option(names = "--read", required = true, description = "A read token: the API and the status page.")
        boolean read;

        @Option(names = "--operator", required = true,
                description = "An operator token: what a read token may, and silences, acknowledgements and notes.")
        boolean operator;

        @Option(names = "--admin", required = true,
                description = "An admin token: what an operator token may, and token management over the API.")
        boolean admin;

        TokenStore.Kind kind() {
            return admin ? TokenStore.Kind.ADMIN : operator ? TokenStore.Kind.OPERATOR : TokenStore.Kind.READ;
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Issue a token for NAME (the agent's host name, or a person's or tool's name with a role) "
                    + "and print it once. Only its hash is stored.")
    static final class Add extends Common implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "Host name of the agent, or a person's or tool's name with a role.")
        String name;

        @ArgGroup(exclusive = true, multiplicity = "0..1")
        Role role;

        @Override
        public Integer call() {
            return withStore("token add", true, (tokens, store) -> {
                TokenStore.Kind kind = role == null ? TokenStore.Kind.AGENT : role.kind();
                String token;
                try {
                    token = tokens.add(name, kind, Instant.now());
                } catch (IllegalArgumentException e) {
                    System.err.println("token add: " + e.getMessage());
                    return 1;
                }
                System.out.println(Character.toUpperCase(kind.label().charAt(0)) + kind.label().substring(1) + " token for "
                        + name + " (shown once; only its hash is stored, in " + store + "). "
                        + (kind == TokenStore.Kind.AGENT ? "Put it in the agent's token file:"
                                : "Send it as 'Authorization: Bearer TOKEN', or paste it into the status page's sign-in form:"));
                System.out.println(token);
                return 0;
            });
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List tokens (names and state, never secrets).")
    static final class ListTokens extends Common implements Callable<Integer> {
        @Override
        public Integer call() {
            return withStore("token list", false, (tokens, store) -> {
                System.err.println("tokens in " + store + ":");
                System.out.printf("%-24s %-8s %-14s %-25s %s%n", "NAME", "KIND", "ID", "CREATED", "STATE");
                for (TokenStore.TokenInfo t : tokens.list()) {
                    System.out.printf("%-24s %-8s %-14s %-25s %s%n", t.name(), t.kind().label(), t.id(),
                            t.createdAt(), t.revokedAt() == null ? "active" : "revoked " + t.revokedAt());
                }
                return 0;
            });
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke NAME's active tokens; the collector refuses them from the next request on.")
    static final class Revoke extends Common implements Callable<Integer> {
        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        public Integer call() {
            return withStore("token revoke", false, (tokens, store) -> {
                int n = tokens.revoke(name, Instant.now());
                if (n == 0) {
                    System.err.println("token revoke: no active token named " + name + " in " + store
                            + " (see: qatwatch collector token list)");
                    return 1;
                }
                System.out.println("Revoked " + n + " token(s) of " + name + " in " + store + ".");
                return 0;
            });
        }
    }
}
