package io.qatwatch.agent.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.probe.HostInventory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Linux host probe as the agent daemon runs it: one probe, collected every cycle. */
class LinuxHostInventoryProbeTest {

    private static final Path HOST = Path.of("src/test/resources/hosts/linux-spr-4xxx-dc-up");

    @Test
    void pciIdsIsReadOnceForTheProbesLifeAndItsNamesStay() {
        List<String> reads = new ArrayList<>();
        LinuxRoot root = LinuxRoot.of(HOST).observed(new LinuxRoot.Observer() {
            @Override
            public void read(String relative, byte[] content) {
                reads.add(relative);
            }

            @Override
            public void listed(String relative, List<String> names) {
            }

            @Override
            public void looked(String relative) {
            }
        });
        LinuxHostInventoryProbe probe = new LinuxHostInventoryProbe(root, false);

        HostInventory first = probe.collect();
        HostInventory second = probe.collect();

        assertThat(reads).as("the fixture's pci.ids, on the first collection only")
                .containsOnlyOnce("usr/share/hwdata/pci.ids");
        assertThat(reads.stream().filter("proc/cpuinfo"::equals)).as("what changes is still read every time").hasSize(2);
        assertThat(first.licence().intelComponents()).as("named from pci.ids")
                .anySatisfy(c -> assertThat(c.description()).isEqualTo("4xxx Series QAT"));
        assertThat(second.licence()).isEqualTo(first.licence());
        assertThat(second.qat()).isEqualTo(first.qat());
        assertThat(second.host()).isEqualTo(first.host());
    }
}
