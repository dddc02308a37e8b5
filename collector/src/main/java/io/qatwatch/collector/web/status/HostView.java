package io.qatwatch.collector.web.status;

import java.time.Instant;
import java.util.List;

/**
 * Everything the host page ({@code /hosts/{host}}) shows, decided and in display order; built by
 * {@link DrillDownViews#host}.
 *
 * @param row         the host as the fleet page lists it (state, group, tags, QAT, licence, instances with their
 *                    accelerator timelines, last seen, losses)
 * @param facts       the host's facts in display order (CPU, system, OS, memory, QAT devices and software)
 * @param databases   per instance (in the order of {@code row.instances()}), its databases, by name
 * @param alerts      its active alerts, most severe first
 * @param resolved    its alerts that resolved lately (kept a week by the alert pipeline), last resolved first
 * @param windows     its instances' nightly windows
 * @param compression its compression verdict and rows; null when none was compared
 * @param silences    the silences in force whose host matcher matches it (or that match every host)
 */
public record HostView(Instant renderedAt, StatusView.HostRow row, List<StatusView.Fact> facts,
                       List<List<DatabaseRef>> databases, List<StatusView.ActiveAlert> alerts,
                       List<ResolvedAlert> resolved, List<StatusView.InstanceWindows> windows, StatusView.HostCompression compression,
                       List<SilenceRow> silences) {

    public HostView {
        facts = List.copyOf(facts);
        databases = List.copyOf(databases);
        alerts = List.copyOf(alerts);
        resolved = List.copyOf(resolved);
        windows = List.copyOf(windows);
        silences = List.copyOf(silences);
    }

    /** An alert that fired and resolved: what it said, where, and from when to when. */
    public record ResolvedAlert(String rule, String severity, String instance, String database, String summary,
                                Instant since, Instant resolvedAt) {
    }

    /** A database of an instance, with its recovery model and, in an availability group, the replica's role. */
    public record DatabaseRef(String name, String recoveryModel, String availabilityGroup, String role) {
    }

    /** A silence in force, with the id the un-silence form ends it by. */
    public record SilenceRow(String id, String rule, String host, String instance, String database, String group,
                             String tag, String comment, String createdBy, Instant endsAt) {

        /** "rule=qat-restore-risk host=sql01": its matchers, as the form set them. */
        public String matchers() {
            StringBuilder s = new StringBuilder();
            String[][] all = {{"rule", rule}, {"host", host}, {"instance", instance}, {"database", database},
                {"group", group}, {"tag", tag}};
            for (String[] m : all) {
                if (m[1] != null && !m[1].isBlank()) {
                    s.append(s.isEmpty() ? "" : " ").append(m[0]).append('=').append(m[1]);
                }
            }
            return s.toString();
        }
    }
}
