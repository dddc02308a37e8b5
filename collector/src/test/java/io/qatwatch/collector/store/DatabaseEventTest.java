package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which database is which between two reports (issue 31): the same database_guid is the same database whatever its name
 * (a rename), else the same name; a side without a GUID falls back to the name.
 */
class DatabaseEventTest {

    private static final Instant AT = Instant.parse("2026-11-30T08:00:00Z");

    private static DatabaseInfo db(String name, String guid, String model) {
        return new DatabaseInfo(name, guid, model, "NONE", null, null, null, guid, null, null, false, null, null, null);
    }

    private static List<org.assertj.core.groups.Tuple> events(List<DatabaseInfo> before, List<DatabaseInfo> after) {
        return DatabaseEvent.between(before, after, AT).stream().map(e -> tuple(e.database(), e.kind(), e.before(), e.after()))
                .toList();
    }

    @Test
    void theSameGuidUnderAnotherNameIsARenameWithItsOtherChanges() {
        assertThat(events(List.of(db("Billing", "G1", "SIMPLE"), db("Sales", "G2", "FULL")),
                List.of(db("Sales", "G2", "FULL"), db("Invoicing", "g1", "FULL")))).containsExactly(
                tuple("Invoicing", DatabaseEvent.RENAMED, "Billing", "Invoicing"),
                tuple("Invoicing", DatabaseEvent.RECOVERY_MODEL_CHANGED, "SIMPLE", "FULL"));
    }

    @Test
    void twoDatabasesThatSwappedNamesAreTwoRenames() {
        assertThat(events(List.of(db("A", "G1", "FULL"), db("B", "G2", "FULL")),
                List.of(db("A", "G2", "FULL"), db("B", "G1", "FULL")))).containsExactly(
                tuple("A", DatabaseEvent.RENAMED, "B", "A"),
                tuple("B", DatabaseEvent.RENAMED, "A", "B"));
    }

    @Test
    void aRenameAndANewDatabaseUnderTheOldNameAreARenameAndAnAppearance() {
        assertThat(events(List.of(db("Billing", "G1", "FULL")),
                List.of(db("Invoicing", "G1", "FULL"), db("Billing", "G9", "FULL")))).containsExactly(
                tuple("Invoicing", DatabaseEvent.RENAMED, "Billing", "Invoicing"),
                tuple("Billing", DatabaseEvent.APPEARED, null, null));
    }

    @Test
    void withoutGuidsDatabasesCompareByName() {
        // an AUTO_CLOSE database (the agent sends no GUID for it) renamed: nothing tells it from a drop and a create
        assertThat(events(List.of(db("Archive", null, "FULL"), db("Sales", "G2", "FULL")),
                List.of(db("Archive2", null, "FULL"), db("Sales", null, "FULL")))).containsExactly(
                tuple("Archive2", DatabaseEvent.APPEARED, null, null),
                tuple("Archive", DatabaseEvent.DISAPPEARED, null, null));
    }

    @Test
    void aDatabaseCreatedAgainUnderItsNameIsNoEvent() {
        // dropped and created again (or restored over itself) between two reports: the same name, as before issue 31
        assertThat(events(List.of(db("Sales", "G1", "FULL")), List.of(db("Sales", "G7", "FULL")))).isEmpty();
    }
}
