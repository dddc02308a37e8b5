package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One instance's QAT accelerator row over time, from the store's change history and the latest snapshot, and the
 * transitions the rules look for in it: a fall from hardware to software or none (or software to none), and a
 * library, driver or deliberate mode change. Pure.
 */
final class QatTimeline {

    /** Mode reasons that say someone chose the mode (configuration, edition), not that QAT failed. */
    static final Set<String> CHOSEN = Set.of("SOFTWARE_MODE_SOFTWARE_FORCE_OVERRIDE", "NONE_HARDWARE_OFFLOAD_NOT_ENABLED",
            "NONE_ACCELERATOR_CONFIG_NOT_ENABLED", "SOFTWARE_MODE_NON_ENTERPRISE_SKU", "NONE_HARDWARE_OFFLOAD_LINUX_NOT_SUPPORTED");

    /** The QAT row as it became at {@code at}; {@code qat} is null when the instance reported no QAT row then. */
    record Point(Instant at, AcceleratorStatus qat) {

        String mode() {
            return qat == null || qat.modeDesc() == null ? "NONE" : qat.modeDesc().toUpperCase(Locale.ROOT);
        }

        int rank() {
            return switch (mode()) {
                case "HARDWARE" -> 2;
                case "SOFTWARE" -> 1;
                default -> 0;
            };
        }

        String reason() {
            return qat == null ? null : qat.modeReasonDesc();
        }

        boolean hardwareDetected() {
            return qat != null && Boolean.TRUE.equals(qat.hardwareDetected());
        }

        String library() {
            return qat == null ? null : qat.libraryVersion();
        }

        String driver() {
            return qat == null ? null : qat.driverVersion();
        }
    }

    /** A fall: from {@code before} (the last point ranked higher than now) to {@code after}, the first point below it. */
    record Fall(Point before, Point after) {
    }

    /** A change of library, driver or chosen mode, at {@code after.at()}. */
    record Change(Point before, Point after) {
    }

    private final List<Point> points;

    private QatTimeline(List<Point> points) {
        this.points = points;
    }

    /** The instance's timeline: its history, then the latest snapshot if it differs from the last change. */
    static QatTimeline of(InstanceState i) {
        List<Point> points = new ArrayList<>();
        for (AcceleratorChange c : i.acceleratorHistory()) {
            add(points, new Point(c.at(), qatRow(c.accelerators())));
        }
        AcceleratorStatus now = qatRow(i.accelerators());
        if (points.isEmpty() || !Objects.equals(points.get(points.size() - 1).qat(), now)) {
            add(points, new Point(i.collectedAt(), now));
        }
        return new QatTimeline(points);
    }

    private static void add(List<Point> points, Point p) {
        if (points.isEmpty() || !Objects.equals(points.get(points.size() - 1).qat(), p.qat())) {
            points.add(p);
        }
    }

    static AcceleratorStatus qatRow(List<AcceleratorStatus> accelerators) {
        return accelerators.stream()
                .filter(a -> a.accelerator() != null && a.accelerator().toUpperCase(Locale.ROOT).contains("QAT"))
                .findFirst().orElse(null);
    }

    List<Point> points() {
        return points;
    }

    /**
     * The fall the instance has not come back from: the latest point ranked higher than now, and the first point
     * after it. Empty when nothing in the history ranks higher than now, or when the mode now was chosen.
     */
    Optional<Fall> fall() {
        if (points.size() < 2) {
            return Optional.empty();
        }
        Point now = points.get(points.size() - 1);
        if (now.reason() != null && CHOSEN.contains(now.reason().toUpperCase(Locale.ROOT))) {
            return Optional.empty();
        }
        for (int i = points.size() - 2; i >= 0; i--) {
            if (points.get(i).rank() > now.rank()) {
                return Optional.of(new Fall(points.get(i), points.get(i + 1)));
            }
        }
        return Optional.empty();
    }

    /** The latest change of library or driver version, or of a mode someone chose, after {@code since}. */
    Optional<Change> lastChange(Instant since) {
        for (int i = points.size() - 1; i > 0; i--) {
            Point after = points.get(i);
            if (!after.at().isAfter(since)) {
                break;
            }
            Point before = points.get(i - 1);
            boolean versions = before.qat() != null && after.qat() != null
                    && (!Objects.equals(before.library(), after.library()) || !Objects.equals(before.driver(), after.driver()));
            boolean chosen = !before.mode().equals(after.mode()) && after.reason() != null
                    && CHOSEN.contains(after.reason().toUpperCase(Locale.ROOT));
            if (versions || chosen) {
                return Optional.of(new Change(before, after));
            }
        }
        return Optional.empty();
    }
}
