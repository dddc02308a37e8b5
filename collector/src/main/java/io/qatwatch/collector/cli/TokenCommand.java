package io.qatwatch.collector.cli;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code qatwatch collector token add|list|revoke}: agent tokens and the people's tokens (read, operator, admin). */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Manage tokens: one agent token per host; read, operator and admin tokens for people and tools.",
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

        TokenStore open() throws Exception {
            return new TokenStore(Database.open(DataDir.resolve(data)));
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
        public Integer call() throws Exception {
            TokenStore.Kind kind = role == null ? TokenStore.Kind.AGENT : role.kind();
            try {
                String token = open().add(name, kind, Instant.now());
                System.out.println(Character.toUpperCase(kind.label().charAt(0)) + kind.label().substring(1)
                        + " token for " + name + " (shown once; only its hash is stored). "
                        + (kind == TokenStore.Kind.AGENT ? "Put it in the agent's token file:"
                                : "Send it as 'Authorization: Bearer <token>':"));
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
            System.out.printf("%-24s %-8s %-14s %-25s %s%n", "NAME", "KIND", "ID", "CREATED", "STATE");
            for (TokenStore.TokenInfo t : open().list()) {
                System.out.printf("%-24s %-8s %-14s %-25s %s%n", t.name(), t.kind().label(), t.id(),
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
