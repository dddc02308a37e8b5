package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which database a backup belongs to: the database of its name, unless its GUIDs show an earlier or another one. */
class DatabaseIdentitiesTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final String SCOPE = "sql01/MSSQLSERVER";

    private static final DatabaseInfo SALES = new DatabaseInfo("Sales", "AAAA-1111", "FULL", "NONE", null, null, null);
    private static final DatabaseInfo NO_GUID = new DatabaseInfo("Closed", null, "SIMPLE", "NONE", null, null, null);
    private static final DatabaseInfo IN_GROUP = new DatabaseInfo("Orders", "BBBB-2222", "FULL", "NONE", "AG1", "SECONDARY",
            true, "FAM-1", "GDB-9", "AG-ID", null, null, null);

    private static final DatabaseIdentities IDS = DatabaseIdentities.of(SCOPE, new InstanceState("MSSQLSERVER", T0, null,
            null, null, List.of(SALES, NO_GUID, IN_GROUP), null, null, null, null));

    private static BackupRecord backup(String db, String guid, String family) {
        return new BackupRecord(1, db, guid, "D", false, T0, T0.plusSeconds(60), true, 1 << 20, null, null, true, null,
                null, null, "DISK", "LOCAL", family, false);
    }

    @Test
    void aBackupOfTheDatabaseOfItsNameIsThatDatabaseWhateverTheCaseOfItsNameAndGuid() {
        assertThat(IDS.key(backup("SALES", "aaaa-1111", null))).isEqualTo(IDS.key(SALES)).isEqualTo("aaaa-1111");
        assertThat(IDS.key(backup("Sales", null, null))).as("no guid sent: the name decides").isEqualTo("aaaa-1111");
        assertThat(IDS.key(backup("closed", "CCCC-3333", null))).as("the database's guid unknown").isEqualTo(SCOPE + "/Closed");
        assertThat(IDS.onSecondary(backup("Sales", "AAAA-1111", null))).isFalse();
    }

    @Test
    void aBackupOfAnEarlierDatabaseOfTheNameOrOfNoneKeepsAnIdentityOfItsOwn() {
        assertThat(IDS.key(backup("Sales", "DDDD-4444", null))).as("dropped and created again").isEqualTo("dddd-4444");
        assertThat(IDS.key(backup("Gone", "EEEE-5555", null))).isEqualTo("eeee-5555");
        assertThat(IDS.key(backup("Gone", null, null))).isEqualTo(SCOPE + "/Gone");
    }

    @Test
    void inAGroupTheFamilyGuidTellsADatabaseOfOtherOrigin() {
        assertThat(IDS.key(backup("Orders", "FFFF-6666", "fam-1"))).as("a replica's own database_guid, the group's family")
                .isEqualTo(IDS.key(IN_GROUP)).isEqualTo("ag-database:gdb-9");
        assertThat(IDS.onSecondary(backup("Orders", "FFFF-6666", "FAM-1"))).isTrue();
        assertThat(IDS.key(backup("Orders", "FFFF-6666", "FAM-2"))).isEqualTo("ffff-6666#family:fam-2");
        assertThat(IDS.onSecondary(backup("Orders", "FFFF-6666", "FAM-2"))).isFalse();
        assertThat(IDS.key(backup("Orders", null, "FAM-2"))).isEqualTo(SCOPE + "/Orders#family:fam-2");
    }
}
