package io.qatwatch.collector.web;

import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * An instance's QAT accelerator over time, as the API ({@code /api/v1/instances/{host}/{instance}/accelerator}) and
 * the status page show it: one point per change of its QAT row, oldest first. Pure.
 */
public final class AcceleratorTimeline {

    private AcceleratorTimeline() {
    }

    /**
     * The QAT row as it became at {@code at}; every field null when the instance reported no QAT row then.
     *
     * @param mode HARDWARE, SOFTWARE or NONE
     */
    public record Point(Instant at, String mode, String reason, Boolean hardwareDetected, String libraryVersion,
                        String driverVersion) {
    }

    /** The points of {@code changes}, leaving out changes of other accelerators that left the QAT row as it was. */
    public static List<Point> of(List<AcceleratorChange> changes) {
        List<Point> out = new ArrayList<>();
        AcceleratorStatus last = null;
        for (AcceleratorChange c : changes) {
            AcceleratorStatus q = c.accelerators().stream()
                    .filter(a -> a.accelerator() != null && a.accelerator().toUpperCase(Locale.ROOT).contains("QAT"))
                    .findFirst().orElse(null);
            if (!out.isEmpty() && Objects.equals(q, last)) {
                continue;
            }
            last = q;
            out.add(q == null ? new Point(c.at(), null, null, null, null, null)
                    : new Point(c.at(), q.modeDesc(), q.modeReasonDesc(), q.hardwareDetected(), q.libraryVersion(),
                            q.driverVersion()));
        }
        return out;
    }
}
