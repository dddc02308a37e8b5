package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The repeating texts a read of backup rows keeps once ({@link BackupRows.Shared}): each text equal to the part of the
 * joined row it came from, a repeat the very string kept before, past the table's first size too.
 */
class BackupRowsSharedTest {

    @Test
    void aRepeatedTextIsTheStringKeptBeforeAndEveryTextIsItsOwnPart() {
        BackupRows.Shared shared = new BackupRows.Shared();
        List<String> names = new ArrayList<>();
        for (int d = 0; d < 500; d++) {
            names.add(d % 7 == 0 ? "" : "Sales_" + d + (d % 3 == 0 ? "\u00e9" : ""));
        }
        List<String> first = new ArrayList<>();
        for (String name : names) {
            String joined = "D\u001f" + name + "\u001fQAT_DEFLATE";
            first.add(shared.of(joined, 2, 2 + name.length()));
        }
        assertThat(first).isEqualTo(names);
        for (int round = 0; round < 3; round++) {
            for (int d = names.size() - 1; d >= 0; d--) {
                String joined = "I\u001f" + names.get(d);
                String kept = shared.of(joined, 2, joined.length());
                assertThat(kept).isEqualTo(names.get(d)).isSameAs(first.get(d % 7 == 0 ? 0 : d));
            }
        }
        // a text read column by column finds the same string
        assertThat(shared.of(new String("Sales_41"))).isSameAs(first.get(41));
        assertThat(shared.of(null)).isNull();
    }
}
