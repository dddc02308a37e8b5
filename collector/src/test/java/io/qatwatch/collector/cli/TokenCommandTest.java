package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qatwatch collector token add|list|revoke} as a person runs them. */
class TokenCommandTest {

    @TempDir
    Path data;


    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void addPrintsTheTokenOnceListShowsNoSecretRevokeTakesEffect() throws Exception {
        CliRun add = run("collector", "token", "add", "sql01", "--data", data.toString());
        assertThat(add.exit()).isZero();
        String token = add.out().lines().filter(l -> l.startsWith("qw_")).findFirst().orElseThrow();
        assertThat(token).matches("qw_[a-z0-9]{12}_[A-Za-z0-9_-]{43}");

        CliRun again = run("collector", "token", "add", "sql01", "--data", data.toString());
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("exists already").contains("token revoke sql01");

        assertThat(run("collector", "token", "add", "../etc", "--data", data.toString()).err()).contains("must be 1 to 63");

        CliRun list = run("collector", "token", "list", "--data", data.toString());
        assertThat(list.out()).contains("sql01").contains("agent").contains("active")
                .doesNotContain(token.substring(16));

        CliRun revoke = run("collector", "token", "revoke", "sql01", "--data", data.toString());
        assertThat(revoke.exit()).isZero();
        assertThat(revoke.out()).contains("Revoked 1 token(s) of sql01");
        try (Database db = Database.open(data)) {
            assertThat(new TokenStore(db).authenticate(token)).isEmpty();
        }
        assertThat(run("collector", "token", "revoke", "sql01", "--data", data.toString()).exit()).isEqualTo(1);

        CliRun read = run("collector", "token", "add", "grafana", "--read", "--data", data.toString());
        assertThat(read.out()).startsWith("Read token for grafana");
    }

    @Test
    void rolesAreIssuedByFlagOneAtATimeAndListed() throws Exception {
        CliRun operator = run("collector", "token", "add", "oncall", "--operator", "--data", data.toString());
        assertThat(operator.exit()).isZero();
        assertThat(operator.out()).startsWith("Operator token for oncall");
        String admin = run("collector", "token", "add", "lead", "--admin", "--data", data.toString()).out()
                .lines().filter(l -> l.startsWith("qw_")).findFirst().orElseThrow();

        CliRun both = run("collector", "token", "add", "x", "--read", "--admin", "--data", data.toString());
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("mutually exclusive");

        assertThat(run("collector", "token", "list", "--data", data.toString()).out())
                .containsPattern("oncall +operator").containsPattern("lead +admin");
        try (Database db = Database.open(data)) {
            assertThat(new TokenStore(db).authenticate(admin)).get().extracting(TokenStore.TokenInfo::kind)
                    .isEqualTo(TokenStore.Kind.ADMIN);
        }
    }
}
