package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    private static final Path EXAMPLE = Path.of("..", "install", "collector.example.yaml");

    @TempDir
    Path dir;

    @Test
    void theDocumentedExampleIsExactlyTheDefaults() {
        assertThat(ConfigLoader.load(EXAMPLE)).isEqualTo(CollectorConfig.defaults());
    }

    /**
     * A dead collector's slices are taken once its leases expire, on the survivors' renewal timer (a third of a lease):
     * the sample file and docs/scaling.md state that one bound, which MultiCollectorTest measures.
     */
    @Test
    void theSampleAndTheScalingDocStateTheTakeoverTimeTheCodeHas() throws Exception {
        EvaluationConfig e = CollectorConfig.defaults().evaluation();
        assertThat(e.renewMillis()).isEqualTo(e.leaseSeconds() * 1000L / 3);
        long bound = e.leaseSeconds() + e.leaseSeconds() / 3;
        String sample = Files.readString(EXAMPLE).replace("\n  # ", " ");
        String scaling = Files.readString(Path.of("..", "docs", "scaling.md")).replace('\n', ' ');
        assertThat(sample).contains("within leaseSeconds + leaseSeconds/3 (" + bound + " s)")
                .doesNotContain("leaseSeconds + everySeconds");
        assertThat(scaling).contains("`leaseSeconds + leaseSeconds/3` for the leases (" + bound + " s)")
                .doesNotContain("leaseSeconds + everySeconds");
    }

    @Test
    void aPartialFileKeepsTheOtherDefaults() throws Exception {
        Path file = Files.writeString(dir.resolve("c.yaml"), """
                listen:
                  port: 9000
                influx:
                  url: http://127.0.0.1:8086
                  mode: v1
                  database: qatwatch
                """);
        CollectorConfig c = ConfigLoader.load(file);
        assertThat(c.listen().host()).isEqualTo("127.0.0.1");
        assertThat(c.listen().port()).isEqualTo(9000);
        assertThat(c.influx().v1()).isTrue();
        assertThat(c.influx().batchPoints()).isEqualTo(5000);
        assertThat(c.ingest()).isEqualTo(CollectorConfig.defaults().ingest());
    }

    @Test
    void aPostgresqlStoreNeedsAUrlAUserAndGroupsByHost() throws Exception {
        Path ok = Files.writeString(dir.resolve("pg.yaml"), """
                store:
                  kind: postgresql
                  url: jdbc:postgresql://db.example:5432/qatwatch
                  user: qatwatch
                  passwordFile: /etc/qatwatch/pg-password
                """);
        CollectorConfig c = ConfigLoader.load(ok);
        assertThat(c.store().postgresql()).isTrue();
        assertThat(c.store().poolSize()).isEqualTo(8);
        assertThat(c.store().passwordEnv()).isEqualTo("QATWATCH_STORE_PASSWORD");
        assertThat(c.evaluation()).isEqualTo(EvaluationConfig.DEFAULTS);

        Path bare = Files.writeString(dir.resolve("bare.yaml"), "store:\n  kind: postgresql\n");
        assertThatThrownBy(() -> ConfigLoader.load(bare)).hasMessageContaining("store.url: required")
                .hasMessageContaining("store.user: required");
        Path inUrl = Files.writeString(dir.resolve("inurl.yaml"), "store:\n  kind: postgresql\n  user: q\n"
                + "  url: jdbc:postgresql://db:5432/q?password=x\n");
        assertThatThrownBy(() -> ConfigLoader.load(inUrl)).hasMessageContaining("store.url: must not carry the password");
        Path grouped = Files.writeString(dir.resolve("grouped.yaml"), "store:\n  kind: postgresql\n  user: q\n"
                + "  url: jdbc:postgresql://db:5432/q\nalerts:\n  pipeline:\n    groupBy: [rule]\n");
        assertThatThrownBy(() -> ConfigLoader.load(grouped)).hasMessageContaining("alerts.pipeline.groupBy: must include host");
        Path lease = Files.writeString(dir.resolve("lease.yaml"), "evaluation:\n  everySeconds: 10\n  leaseSeconds: 10\n");
        assertThatThrownBy(() -> ConfigLoader.load(lease)).hasMessageContaining("evaluation.leaseSeconds");
        assertThat(ConfigLoader.load(Files.writeString(dir.resolve("fast.yaml"), "evaluation:\n  everySeconds: 4\n"))
                .evaluation()).as("the lease follows a short interval").isEqualTo(new EvaluationConfig(4, 2));
    }

    @Test
    void unknownKeyAndBadValuesAreNamed() throws Exception {
        Path typo = Files.writeString(dir.resolve("typo.yaml"), "influx:\n  urll: http://x\n");
        assertThatThrownBy(() -> ConfigLoader.load(typo)).hasMessageContaining("influx.urll");
        Path v1 = Files.writeString(dir.resolve("v1.yaml"), "influx:\n  url: http://127.0.0.1:8086\n  mode: v1\n");
        assertThatThrownBy(() -> ConfigLoader.load(v1)).hasMessageContaining("influx.database: required in v1 mode");
        Path v3 = Files.writeString(dir.resolve("v3.yaml"), "influx:\n  url: http://127.0.0.1:8086\n  mode: v3\n");
        assertThatThrownBy(() -> ConfigLoader.load(v3)).hasMessageContaining("influx.mode");
        Path tls = Files.writeString(dir.resolve("tls.yaml"), "tls:\n  certFile: /etc/cert.pem\n");
        assertThatThrownBy(() -> ConfigLoader.load(tls)).hasMessageContaining("tls.keyFile");
    }
}
