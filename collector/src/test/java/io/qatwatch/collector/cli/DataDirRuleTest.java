package io.qatwatch.collector.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.web.ListenConfig;
import io.qatwatch.collector.web.TlsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One rule for where state lives, and what the collector's commands say when the store is not where it should be. */
class DataDirRuleTest {

    @TempDir
    Path tmp;


    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void theDataDirectoryIsTheFlagElseTheEnvironmentElseDotQatwatchAndTheStoreIsQatwatchDbInIt() {
        Path cwd = Path.of("").toAbsolutePath();
        assertThat(DataDir.resolve(null, Map.of())).isEqualTo(cwd.resolve(".qatwatch"));
        assertThat(DataDir.resolve(null, Map.of("QATWATCH_DATA", "/var/lib/qatwatch/collector")))
                .isEqualTo(Path.of("/var/lib/qatwatch/collector"));
        assertThat(DataDir.resolve(Path.of("mine"), Map.of("QATWATCH_DATA", "/elsewhere"))).isEqualTo(cwd.resolve("mine"));
        assertThat(DataDir.store(Path.of("/d"))).isEqualTo(Path.of("/d/qatwatch.db"));
    }

    @Test
    void enrolmentBeforeTheCollectorEverStartedCreatesTheStoreAndSaysWhichAndWhatNext() throws Exception {
        Path data = tmp.resolve("fresh");
        CliRun add = run("collector", "token", "add", "sql01", "--data", data.toString());
        assertThat(add.exit()).as(add.err()).isZero();
        assertThat(add.err()).contains("created the store " + data.resolve("qatwatch.db"),
                "--data DIR, else $QATWATCH_DATA, else ./.qatwatch", "Start the collector with the same data directory");
        assertThat(add.out()).contains("only its hash is stored, in " + data.resolve("qatwatch.db"));
        String token = add.out().strip().lines().reduce((a, b) -> b).orElseThrow();
        try (Database db = Database.open(data)) {
            assertThat(new TokenStore(db).authenticate(token)).isPresent();
        }
    }

    @Test
    void listingOrRevokingWhereThereIsNoStoreNamesThePathAndTheRuleAndCreatesNothing() {
        Path data = tmp.resolve("nothing-here");
        for (String command : new String[] {"list", "revoke"}) {
            CliRun run = command.equals("list") ? run("collector", "token", "list", "--data", data.toString())
                    : run("collector", "token", "revoke", "sql01", "--data", data.toString());
            assertThat(run.exit()).isEqualTo(1);
            assertThat(run.err()).contains("there is no store yet: the store " + data.resolve("qatwatch.db"),
                    "the data directory is --data DIR, else $QATWATCH_DATA, else ./.qatwatch", "token add NAME' creates it")
                    .doesNotContain("Exception", "\tat ");
        }
        assertThat(data).doesNotExist();
    }

    @Test
    void aStoreThatCannotBeCreatedIsAnErrorThatSaysWhatToDoWithoutAStackTrace() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "not a folder");
        CliRun add = run("collector", "token", "add", "sql01", "--data", file.resolve("data").toString());
        assertThat(add.exit()).isEqualTo(1);
        assertThat(add.err()).contains("token add: cannot open the store " + file.resolve("data/qatwatch.db"),
                "Run the command as a user that may write", "--data DIR").doesNotContain("\tat ");
    }

    @Test
    void upMovesTheStoreItKeptInCollectorIntoTheDataDirectoryOnce() throws Exception {
        Path data = tmp.resolve("up");
        String token;
        try (Database db = Database.open(data.resolve("collector"))) {
            token = new TokenStore(db).add("test1", TokenStore.Kind.AGENT, Instant.now());
        }
        assertThat(DataDir.moveOldUpLayout(data)).hasValueSatisfying(m -> assertThat(m)
                .contains("moved the collector's store from " + data.resolve("collector/qatwatch.db") + " to " + data.resolve("qatwatch.db")));
        assertThat(data.resolve("collector")).doesNotExist();
        assertThat(DataDir.moveOldUpLayout(data)).isEmpty();
        CliRun list = run("collector", "token", "list", "--data", data.toString());
        assertThat(list.out()).contains("test1");
        try (Database db = Database.open(data)) {
            assertThat(new TokenStore(db).authenticate(token)).isPresent();
        }
    }

    @Test
    void upWritesTheLocalAgentsHealthPortNextToTheCollectorsPort() throws Exception {
        try (Database db = Database.open(tmp)) {
            Path config = new UpCommand().enrollLocalAgent(new TokenStore(db), tmp.resolve("agent"), 8480);
            assertThat(Files.readString(config)).contains("health:\n  port: 8481\n").contains("url: http://127.0.0.1:8480");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-V", "--version", "version", "version -V", "collector -V", "collector token -V",
            "collector token add -V", "collector token list --version", "up -V"})
    void everyCommandPrintsTheVersion(String args) {
        CliRun run = run(args.split(" "));
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).matches("qatwatch \\S+ \\(report schema \\d+\\)\\R");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--bogus", "collector --bogus", "up --bogus", "collector token list --bogus"})
    void aBadFlagPrintsTheUsageAndExits2(String args) {
        CliRun run = run(args.split(" "));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--bogus'", "Usage: qatwatch");
    }

    @Test
    void listeningBeyondLoopbackWithoutTlsIsWarnedAboutNamingTheSettings() {
        TlsConfig tls = new TlsConfig(Path.of("cert.pem"), Path.of("key.pem"));
        assertThat(new ListenConfig("0.0.0.0", 8470).plainTextWarning(TlsConfig.PLAIN)).hasValueSatisfying(w ->
                assertThat(w).contains("listen.host is 0.0.0.0", "tls.certFile", "tls.keyFile", "clear text"));
        assertThat(new ListenConfig("10.1.2.3", 8470).plainTextWarning(TlsConfig.PLAIN)).isPresent();
        assertThat(new ListenConfig("0.0.0.0", 8470).plainTextWarning(tls)).isEmpty();
        assertThat(new ListenConfig("127.0.0.1", 8470).plainTextWarning(TlsConfig.PLAIN)).isEmpty();
        assertThat(new ListenConfig("::1", 8470).plainTextWarning(TlsConfig.PLAIN)).isEmpty();
    }
}
