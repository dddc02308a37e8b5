package io.qatwatch.collector.compression;

import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An instance's QAT accelerator mode over time ({@code sys.dm_server_accelerator_status.mode_desc}: HARDWARE,
 * SOFTWARE, NONE), so that each QAT_DEFLATE backup is judged in the mode it ran in. Backups older than the first
 * state the collector saw take that first state: an agent's first report brings msdb's history with it.
 */
public final class QatModes {

    /** A mode and the instant it was first reported. */
    public record Change(Instant at, String mode) {
    }

    private final List<Change> changes;

    private QatModes(List<Change> changes) {
        this.changes = List.copyOf(changes);
    }

    /** Always {@code mode} (null: unknown): for an instance whose history of states is not known. */
    public static QatModes constant(String mode) {
        return new QatModes(List.of(new Change(Instant.MIN, mode)));
    }

    /** The mode of the QAT row of an accelerator section; null when there is none (before SQL Server 2022). */
    public static String modeOf(List<AcceleratorStatus> accelerators) {
        if (accelerators == null) {
            return null;
        }
        for (AcceleratorStatus a : accelerators) {
            if (a.accelerator() != null && a.accelerator().toUpperCase(Locale.ROOT).contains("QAT")) {
                return a.modeDesc() == null ? null : a.modeDesc().trim().toUpperCase(Locale.ROOT);
            }
        }
        return null;
    }

    /**
     * The timeline of {@code states}, oldest first (each an instant and the accelerator section reported then),
     * ending with {@code current}, the instance's latest section; repeated modes fold into one change.
     */
    public static QatModes of(List<Change> states, String current) {
        List<Change> out = new ArrayList<>();
        for (Change c : states) {
            if (out.isEmpty() || !java.util.Objects.equals(out.get(out.size() - 1).mode(), c.mode())) {
                out.add(c);
            }
        }
        if (out.isEmpty()) {
            return constant(current);
        }
        return new QatModes(out);
    }

    /** The mode in force at {@code t}: the latest change at or before it, else the first known. */
    public String at(Instant t) {
        Change found = changes.get(0);
        for (Change c : changes) {
            if (c.at().isAfter(t)) {
                break;
            }
            found = c;
        }
        return found.mode();
    }

    public List<Change> changes() {
        return changes;
    }
}
