package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * install/collector/compose.yaml cannot run here (no Docker); this reads it as YAML and checks what would
 * bite a user: ports open beyond loopback, floating image tags, mounted files that do not exist.
 */
class ComposeFileTest {

    private static final Path DIR = Dist.REPO.resolve("install/collector");

    @Test
    void publishesEveryPortOnLoopbackOnly() throws IOException {
        List<String> ports = new ArrayList<>();
        services().forEach(service -> service.path("ports").forEach(port -> ports.add(port.asText())));

        assertThat(ports).containsExactlyInAnyOrder("127.0.0.1:8086:8086", "127.0.0.1:8470:8470", "127.0.0.1:3000:3000");
    }

    @Test
    void pinsEveryImageToAVersion() throws IOException {
        services().forEach(service -> assertThat(service.path("image").asText()).matches("[\\w./-]+:[\\w.-]*\\d[\\w.-]*"));
    }

    @Test
    void mountsTheGrafanaProvisioningThatShipsNextToIt() throws IOException {
        List<String> sources = new ArrayList<>();
        services().forEach(service -> service.path("volumes").forEach(volume -> {
            String source = volume.asText().split(":")[0];
            if (source.startsWith(".")) {
                sources.add(source);
            }
        }));

        // collector.yaml: the user's copy of the sample; the jar: built by Maven; dashboards/: the repository's
        assertThat(sources).containsExactlyInAnyOrder("./collector.yaml", "../../collector/target/qatwatch-collector-all.jar",
                "./grafana/datasource.yaml", "./grafana/dashboards.yaml", "../../dashboards");
        assertThat(DIR.resolve("grafana/datasource.yaml")).isRegularFile();
        assertThat(DIR.resolve("grafana/dashboards.yaml")).isRegularFile();
    }

    private static Iterable<JsonNode> services() throws IOException {
        JsonNode compose = new ObjectMapper(new YAMLFactory()).readTree(DIR.resolve("compose.yaml").toFile());
        return compose.path("services");
    }
}
