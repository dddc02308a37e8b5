package io.qatwatch.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigLoaderTest {

    static final Path EXAMPLE = Path.of(System.getProperty("basedir", ".")).resolve("../install/agent.example.yaml").normalize();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    @Test
    void theExampleFileHoldsExactlyTheDefaults() throws IOException {
        AgentConfig loaded = AgentConfigLoader.parse(YAML.readTree(EXAMPLE.toFile()), Map.of(), dir, new TreeSet<>()).config();
        AgentConfig d = AgentConfig.defaults();
        AgentConfig expected = new AgentConfig(d.name(),
                new AgentConfig.Collector(URI.create("https://collector.example.org:8470"), d.collector().tokenFile(),
                        d.collector().tokenEnv(), d.collector().caFile(), d.collector().gzip(), d.collector().connectTimeout(),
                        d.collector().requestTimeout(), d.collector().initialBackoff(), d.collector().maxBackoff()),
                d.outbox(), d.schedule(), d.healthPort(), d.sqlInstances());
        assertThat(loaded).isEqualTo(expected);
    }

    @Test
    void tagsComeFromTheConfigOrTheEnvironmentAndBadOnesNameTheirKey() throws IOException {
        String yaml = "agent:\n  tags: {env: prod, site: fra}\ncollector:\n  url: https://collector.example.org:8470\n";
        assertThat(AgentConfigLoader.parse(YAML.readTree(yaml), Map.of(), dir, new TreeSet<>()).config().tags())
                .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("env", "prod", "site", "fra")));
        assertThat(AgentConfigLoader.parse(YAML.readTree(yaml), Map.of("QATWATCH_AGENT_TAGS", "env=test,team=finance"), dir,
                new TreeSet<>()).config().tags()).isEqualTo(Map.of("env", "test", "team", "finance"));
        String bad = "agent:\n  tags: {\"bad key\": x}\ncollector:\n  url: https://collector.example.org:8470\n";
        assertThatThrownBy(() -> AgentConfigLoader.parse(YAML.readTree(bad), Map.of(), dir, new TreeSet<>()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("agent.tags.bad key")
                .hasMessageContaining("must be 1 to 63 letters");
    }

    @Test
    void theExampleInstanceBlockDocumentsEveryInstanceKeyWithItsDefault() throws IOException {
        Path password = Files.writeString(dir.resolve("sql-password"), "secret\n");
        String yaml = "collector:\n  url: https://collector.example.org:8470\nsqlserver:\n  instances:\n"
                + exampleInstanceBlock().replace("/etc/qatwatch/sql-password", password.toString());
        Set<String> keys = new TreeSet<>();
        SqlInstanceSettings instance = AgentConfigLoader.parse(YAML.readTree(yaml), Map.of(), dir, keys).config().sqlInstances().get(0);
        SqlInstanceSettings d = AgentConfig.instanceDefaults("MSSQLSERVER", "jdbc:sqlserver://localhost:1433;encrypt=true");
        assertThat(instance).isEqualTo(new SqlInstanceSettings(d.name(), d.jdbcUrl(), "qatwatch", password, null,
                d.trustServerCertificate(), d.loginTimeout(), d.queryTimeout(), d.backupPageSize()));
        assertThat(keys).contains("sqlserver.instances[].backupPageSize");
    }

    @Test
    void everyKeyTheAgentReadsIsDocumentedInTheExample() throws IOException {
        Path password = Files.writeString(dir.resolve("pw"), "x");
        String yaml = "collector:\n  url: https://c.example.org\nsqlserver:\n  instances:\n"
                + "    - {name: A, jdbcUrl: 'jdbc:sqlserver://h', user: u, passwordFile: " + password + "}\n";
        Set<String> keys = new TreeSet<>();
        AgentConfigLoader.parse(YAML.readTree(yaml), Map.of(), dir, keys);
        String example = Files.readString(EXAMPLE);
        for (String key : keys) {
            String leaf = key.substring(key.lastIndexOf('.') + 1);
            assertThat(example).as("install/agent.example.yaml documents " + key).containsPattern("(?m)^[ #-]*" + leaf + ":");
        }
        assertThat(keys).contains("collector.url", "outbox.maxBytes", "schedule.sqlBackups", "health.port", "sqlserver.instances[].jdbcUrl");
    }

    @Test
    void errorsNameTheKey() {
        assertError("collector:\n  url: https://c\n  tokn: x\n", "collector.tokn", "unknown key");
        assertError("collector:\n  url: https://c\nschedule:\n  sqlBackups: 5 minutes\n", "schedule.sqlBackups", "duration");
        assertError("agent:\n  name: x\n", "collector.url", "required");
        assertError("collector:\n  url: ftp://c\n", "collector.url", "https://");
        assertError("collector:\n  url: https://c\noutbox:\n  maxBytes: 10\n", "outbox.maxBytes", "at least");
        assertError("collector:\n  url: https://c\nhealth:\n  port: 70000\n", "health.port", "between 0 and 65535");
        assertError("collector:\n  url: https://c\nsqlserver:\n  instances:\n    - name: A\n      jdbcUrl: 'jdbc:sqlserver://h;password=x'\n",
                "sqlserver.instances[0].jdbcUrl", "must not contain the password");
        assertError("collector:\n  url: https://c\nsqlserver:\n  instances:\n    - {name: A, jdbcUrl: 'jdbc:sqlserver://h'}\n"
                + "    - {name: a, jdbcUrl: 'jdbc:sqlserver://h2'}\n", "sqlserver.instances[1].name", "used twice");
        assertError("collector:\n  url: https://c\nsqlserver:\n  instances:\n    - {name: 'my instance', jdbcUrl: 'jdbc:sqlserver://h'}\n",
                "sqlserver.instances[0].name", "letters, digits");
        assertError("collector:\n  url: https://c\n  tokenFile: missing.token\n", "collector.tokenFile", "cannot read");
        assertError("collector:\n  url: https://c\nsqlserver:\n  instances:\n    - {name: A, jdbcUrl: 'jdbc:sqlserver://h', "
                + "commandLogDatabase: 'DBA]; DROP TABLE x; --'}\n", "sqlserver.instances[0].commandLogDatabase", "a plain database name");
    }

    @Test
    void environmentVariablesOverrideSingleValues() throws IOException {
        Map<String, String> env = Map.of("QATWATCH_COLLECTOR_URL", "https://other.example.org:9000",
                "QATWATCH_OUTBOX_MAX_BYTES", "8MiB", "QATWATCH_SCHEDULE_SQL_BACKUPS", "30s", "QATWATCH_HEALTH_PORT", "0");
        AgentConfig c = AgentConfigLoader.parse(YAML.readTree(EXAMPLE.toFile()), env, dir, new TreeSet<>()).config();
        assertThat(c.collector().url()).isEqualTo(URI.create("https://other.example.org:9000"));
        assertThat(c.outbox().maxBytes()).isEqualTo(8L << 20);
        assertThat(c.schedule().sqlBackups()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.healthPort()).isZero();
        assertThat(ConfigReader.envName("collector.tokenFile")).isEqualTo("QATWATCH_COLLECTOR_TOKEN_FILE");
    }

    @Test
    void aConfigFileOthersCanReadIsWarnedAbout() throws IOException {
        Path file = dir.resolve("agent.yaml");
        Files.writeString(file, "collector:\n  url: https://c.example.org\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(AgentConfigLoader.load(file, Map.of()).warnings()).anyMatch(w -> w.contains("readable by every user") && w.contains("chmod"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(AgentConfigLoader.load(file, Map.of()).warnings()).isEmpty();
    }

    @Test
    void plainHttpToAnotherHostIsWarnedAbout() throws IOException {
        List<String> warnings = AgentConfigLoader.parse(YAML.readTree("collector:\n  url: http://collector.example.org\n"),
                Map.of(), dir, new TreeSet<>()).warnings();
        assertThat(warnings).anyMatch(w -> w.contains("unencrypted"));
        assertThat(AgentConfigLoader.parse(YAML.readTree("collector:\n  url: http://127.0.0.1:8470\n"),
                Map.of(), dir, new TreeSet<>()).warnings()).isEmpty();
    }

    @Test
    void theTokenComesFromItsFileOrTheEnvironmentAndItsAbsenceNamesTheKeys() throws IOException {
        Path tokenFile = Files.writeString(dir.resolve("agent.token"), "qwa_abc123\n");
        AgentConfig.Collector d = AgentConfig.defaults().collector();
        AgentConfig.Collector fromFile = new AgentConfig.Collector(URI.create("https://c"), tokenFile, d.tokenEnv(), null, true,
                d.connectTimeout(), d.requestTimeout(), d.initialBackoff(), d.maxBackoff());
        assertThat(Secrets.collectorToken(fromFile, Map.of())).isEqualTo("qwa_abc123");
        assertThat(Secrets.collectorToken(d, Map.of("QATWATCH_AGENT_TOKEN", "qwa_env"))).isEqualTo("qwa_env");
        assertThatThrownBy(() -> Secrets.collectorToken(d, Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("collector.tokenFile").hasMessageContaining("QATWATCH_AGENT_TOKEN");
    }

    private void assertError(String yaml, String key, String text) {
        assertThatThrownBy(() -> AgentConfigLoader.parse(YAML.readTree(yaml), Map.of(), dir, new TreeSet<>()))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.key()).isEqualTo(key))
                .hasMessageContaining(text);
    }

    /** The commented example entry under {@code instances: []}, uncommented. */
    private static String exampleInstanceBlock() throws IOException {
        StringBuilder block = new StringBuilder();
        boolean inside = false;
        for (String line : Files.readAllLines(EXAMPLE)) {
            if (line.trim().equals("instances: []")) {
                inside = true;
                continue;
            }
            if (inside) {
                if (!line.startsWith("  #  ")) {
                    break;
                }
                block.append("  ").append(line.substring(3)).append('\n');
            }
        }
        assertThat(block).as("example instance block").isNotEmpty();
        return block.toString();
    }
}
