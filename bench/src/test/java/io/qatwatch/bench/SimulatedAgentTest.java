package io.qatwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatedAgentTest {

    @Test
    void aHistoryHoldsOnlyBackupsFinishedByNowAsMsdbWould() {
        // sql0 is one of the creeping hosts: its nightly backups start at 01:00 UTC plus 9 minutes a database
        SimulatedAgent creeping = new SimulatedAgent(0);
        Instant early = Instant.parse("2026-12-07T02:00:00Z");
        Instant noon = Instant.parse("2026-12-07T12:00:00Z");

        List<BackupRecord> atTwo = creeping.nightlyHistory(7, SimulatedAgent.firstNight(early, 7), early);
        List<BackupRecord> atNoon = creeping.nightlyHistory(7, SimulatedAgent.firstNight(noon, 7), noon);

        assertThat(atNoon).hasSize(7 * SimulatedAgent.DATABASES);
        assertThat(atTwo.size()).as("the creeping host's last night is still running at 02:00").isLessThan(atNoon.size());
        // the same nights (the same evening begins them): what is left out is exactly what had not finished, and the
        // backups kept keep msdb's numbering of the whole history
        assertThat(atTwo).containsExactlyElementsOf(atNoon.stream().filter(b -> !b.finishedAt().isAfter(early)).toList());
    }
}
