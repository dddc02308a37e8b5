package io.qatwatch.collector.cli;

import io.qatwatch.collector.ConfigLoader;
import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.StoreConfig;
import io.qatwatch.collector.store.TokenStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code qatwatch collector token add|list|revoke}: agent and read tokens. */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Manage tokens: one agent token per host, read tokens for the API and status page.",
        subcommands = {TokenCommand.Add.class, TokenCommand.ListTokens.class, TokenCommand.Revoke.class})
public final class TokenCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("Missing subcommand: add, list or revoke (see --help).");
        return 2;
    }

    /** Options every token subcommand shares. */
    static class Common {
        @Option(names = "--data", paramLabel = "DIR",
                description = "Collector data directory (default: $QATWATCH_DATA or ./.qatwatch).")
        Path data;

        @Option(names = "--config", paramLabel = "FILE",
                description = "Collector config: with store.kind postgresql the tokens are in that database.")
        Path config;

        TokenStore open() throws Exception {
            StoreConfig store = config == null ? StoreConfig.DEFAULTS : ConfigLoader.load(config).store();
            return new TokenStore(Database.open(store, DataDir.resolve(data), Secrets.fromEnvironment()));
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Issue a token for NAME (the agent's host name) and print it once. Only its hash is stored.")
    static final class Add extends Common implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "Host name of the agent, or a reader's name with --read.")
        String name;

        @Option(names = "--read", description = "Issue a read token (API and status page) instead of an agent token.")
        boolean read;

        @Override
        public Integer call() throws Exception {
            TokenStore.Kind kind = read ? TokenStore.Kind.READ : TokenStore.Kind.AGENT;
            try {
                String token = open().add(name, kind, Instant.now());
                System.out.println((read ? "Read" : "Agent") + " token for " + name
                        + " (shown once; only its hash is stored). Put it in the agent's token file:");
                System.out.println(token);
                return 0;
            } catch (IllegalArgumentException e) {
                System.err.println("token add: " + e.getMessage());
                return 1;
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List tokens (names and state, never secrets).")
    static final class ListTokens extends Common implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            System.out.printf("%-24s %-6s %-14s %-25s %s%n", "NAME", "KIND", "ID", "CREATED", "STATE");
            for (TokenStore.TokenInfo t : open().list()) {
                System.out.printf("%-24s %-6s %-14s %-25s %s%n", t.name(), t.kind().name().toLowerCase(), t.id(),
                        t.createdAt(), t.revokedAt() == null ? "active" : "revoked " + t.revokedAt());
            }
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Revoke NAME's active tokens; the collector refuses them from the next request on.")
    static final class Revoke extends Common implements Callable<Integer> {
        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        public Integer call() throws Exception {
            int n = open().revoke(name, Instant.now());
            if (n == 0) {
                System.err.println("token revoke: no active token named " + name + " (see: qatwatch collector token list)");
                return 1;
            }
            System.out.println("Revoked " + n + " token(s) of " + name + ".");
            return 0;
        }
    }
}
