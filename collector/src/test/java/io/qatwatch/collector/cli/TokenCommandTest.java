package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qatwatch collector token add|list|revoke} as a person runs them. */
class TokenCommandTest {

    @TempDir
    Path data;

    /** Exit code and what the command printed on stdout and stderr. */
    record Run(int exit, String out, String err) {
    }

    private Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int exit = CollectorMain.run(args);
            return new Run(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void addPrintsTheTokenOnceListShowsNoSecretRevokeTakesEffect() throws Exception {
        Run add = run("collector", "token", "add", "sql01", "--data", data.toString());
        assertThat(add.exit()).isZero();
        String token = add.out().lines().filter(l -> l.startsWith("qw_")).findFirst().orElseThrow();
        assertThat(token).matches("qw_[a-z0-9]{12}_[A-Za-z0-9_-]{43}");

        Run again = run("collector", "token", "add", "sql01", "--data", data.toString());
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("exists already").contains("token revoke sql01");

        assertThat(run("collector", "token", "add", "../etc", "--data", data.toString()).err()).contains("must be 1 to 63");

        Run list = run("collector", "token", "list", "--data", data.toString());
        assertThat(list.out()).contains("sql01").contains("agent").contains("active")
                .doesNotContain(token.substring(16));

        Run revoke = run("collector", "token", "revoke", "sql01", "--data", data.toString());
        assertThat(revoke.exit()).isZero();
        assertThat(revoke.out()).contains("Revoked 1 token(s) of sql01");
        try (Database db = Database.open(data)) {
            assertThat(new TokenStore(db).authenticate(token)).isEmpty();
        }
        assertThat(run("collector", "token", "revoke", "sql01", "--data", data.toString()).exit()).isEqualTo(1);

        Run read = run("collector", "token", "add", "grafana", "--read", "--data", data.toString());
        assertThat(read.out()).startsWith("Read token for grafana");
    }

    @Test
    void rolesAreIssuedByFlagOneAtATimeAndListed() throws Exception {
        Run operator = run("collector", "token", "add", "oncall", "--operator", "--data", data.toString());
        assertThat(operator.exit()).isZero();
        assertThat(operator.out()).startsWith("Operator token for oncall");
        String admin = run("collector", "token", "add", "lead", "--admin", "--data", data.toString()).out()
                .lines().filter(l -> l.startsWith("qw_")).findFirst().orElseThrow();

        Run both = run("collector", "token", "add", "x", "--read", "--admin", "--data", data.toString());
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
