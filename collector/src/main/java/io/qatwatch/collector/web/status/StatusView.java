package io.qatwatch.collector.web.status;

import io.qatwatch.collector.web.AcceleratorTimeline;
import io.qatwatch.collector.web.AlertsView;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * Everything the status page shows, already decided and in display order: the page only lays it out.
 * Built by {@link StatusViews} from the store and the window and alert analysis.
 *
 * @param summary    hosts per state, over the whole fleet and per host group
 * @param paging     which page of the fleet this is, and where the next starts
 * @param fleet      the page's hosts, in display order
 * @param alerts     the alerts firing now that the page's filters match, most severe first, at most
 *                   {@link StatusViews#ALERTS_SHOWN}
 * @param windows    per SQL Server instance of the page's hosts, its recent nightly windows and their trend
 * @param algorithms per database of the page's hosts and compression algorithm, how its backups did
 * @param channels   each chat channel's deliveries since the collector started; empty without the alert stage
 */
public record StatusView(
        Instant renderedAt,
        FleetStatus.Summary summary,
        Paging paging,
        List<HostRow> fleet,
        List<ActiveAlert> alerts,
        List<InstanceWindows> windows,
        List<AlgorithmRow> algorithms,
        List<AlertsView.ChannelHealth> channels) {

    public StatusView {
        fleet = List.copyOf(fleet);
        alerts = List.copyOf(alerts);
        windows = List.copyOf(windows);
        algorithms = List.copyOf(algorithms);
        channels = channels == null ? List.of() : List.copyOf(channels);
    }

    /** A page without the chat channels' deliveries. */
    public StatusView(Instant renderedAt, FleetStatus.Summary summary, Paging paging, List<HostRow> fleet,
            List<ActiveAlert> alerts, List<InstanceWindows> windows, List<AlgorithmRow> algorithms) {
        this(renderedAt, summary, paging, fleet, alerts, windows, algorithms, List.of());
    }

    /**
     * Which part of the fleet the page shows.
     *
     * @param query          this page's filters, cursor and size
     * @param defaultLimit   the page size a link may leave out
     * @param next           the next page's query; null on the last page
     * @param alertsMatching how many active alerts the filters match (the page shows the first few)
     */
    public record Paging(FleetQuery query, int defaultLimit, FleetQuery next, int alertsMatching) {
    }

    /**
     * One host of the fleet.
     *
     * @param state          a {@code HostState} label: silent, critical, warning, info or ok
     * @param group          its host group in the alert configuration, null when none
     * @param tags           its agent's tags, {@code key=value}, in key order
     * @param qat            null when no report carried QAT facts yet
     * @param licenceVerdict a {@code LicenceVerdict} name, null when unknown
     * @param losses         what the agent's last report said it lost, null when it said nothing
     */
    public record HostRow(
            String host,
            String state,
            String group,
            List<String> tags,
            String cpuVendor,
            QatState qat,
            String licenceVerdict,
            List<SqlInstanceRow> instances,
            Instant lastSeen,
            AgentLosses losses) {

        public HostRow {
            instances = List.copyOf(instances);
            tags = tags == null ? List.of() : List.copyOf(tags);
        }

        /** A host whose agent reported no losses (or none yet). */
        public HostRow(String host, String state, String group, List<String> tags, String cpuVendor, QatState qat,
                String licenceVerdict, List<SqlInstanceRow> instances, Instant lastSeen) {
            this(host, state, group, tags, cpuVendor, qat, licenceVerdict, instances, lastSeen, null);
        }
    }

    /**
     * Reports an agent lost, as totals since its outbox was created.
     *
     * @param lost    could not be written to its disk (a full disk): never sent
     * @param dropped dropped, oldest first, from a full outbox
     * @param corrupt torn or corrupt records cut out after a crash
     */
    public record AgentLosses(long lost, long dropped, long corrupt) {

        public boolean any() {
            return lost > 0 || dropped > 0 || corrupt > 0;
        }
    }

    /** The host's QAT devices as the agent found them. */
    public record QatState(int devices, int devicesUp, boolean compressionReady) {
    }

    /**
     * A SQL Server instance of a host.
     *
     * @param acceleratorMode   {@code sys.dm_server_accelerator_status} mode: HARDWARE, SOFTWARE, NONE; null before SQL Server 2022
     * @param acceleratorReason  its {@code mode_reason_desc}
     * @param availabilityGroups the availability groups its databases are in, with this replica's role ({@code ag-orders SECONDARY})
     * @param qatTimeline        its QAT row over the last 30 days, oldest first (the first point: how it stood then);
     *                           empty when unknown
     */
    public record SqlInstanceRow(String name, String productVersion, String acceleratorMode, String acceleratorReason,
            List<String> availabilityGroups, List<AcceleratorTimeline.Point> qatTimeline) {

        public SqlInstanceRow {
            availabilityGroups = availabilityGroups == null ? List.of() : List.copyOf(availabilityGroups);
            qatTimeline = qatTimeline == null ? List.of() : List.copyOf(qatTimeline);
        }

        /** An instance whose QAT history is not shown. */
        public SqlInstanceRow(String name, String productVersion, String acceleratorMode, String acceleratorReason,
                List<String> availabilityGroups) {
            this(name, productVersion, acceleratorMode, acceleratorReason, availabilityGroups, List.of());
        }

        /** An instance in no availability group. */
        public SqlInstanceRow(String name, String productVersion, String acceleratorMode, String acceleratorReason) {
            this(name, productVersion, acceleratorMode, acceleratorReason, List.of(), List.of());
        }
    }

    /**
     * An alert firing now, with its reason.
     *
     * @param severity {@code critical}, {@code warning} or {@code info}
     * @param why      the rule's plain-language reason with this alert's particulars
     * @param facts    the numbers behind it, already formatted, in display order
     * @param since    when it started firing
     * @param life     what people and the pipeline did with it ("acknowledged by oncall: ...", "silenced",
     *                 "flapping"), or null
     */
    public record ActiveAlert(
            String id,
            String rule,
            String severity,
            String host,
            String instance,
            String database,
            String summary,
            String why,
            List<Fact> facts,
            Instant since,
            String life) {

        public ActiveAlert {
            facts = facts == null ? List.of() : List.copyOf(facts);
        }

        /** An alert nobody acknowledged, silenced or saw flapping. */
        public ActiveAlert(String id, String rule, String severity, String host, String instance, String database,
                String summary, String why, List<Fact> facts, Instant since) {
            this(id, rule, severity, host, instance, database, summary, why, facts, since, null);
        }
    }

    /** A label and its value, formatted for people. */
    public record Fact(String label, String value) {
    }

    /**
     * One instance's recent nights (oldest first, usually the last 30) and where its trend leads.
     *
     * @param zone                the business calendar's time zone, for clock times on the chart
     * @param safetyMarginMinutes the margin under which the creep rule warns
     * @param trend               null when too few comparable nights were seen
     */
    public record InstanceWindows(
            String host,
            String instance,
            ZoneId zone,
            double safetyMarginMinutes,
            List<Night> nights,
            Trend trend) {

        public InstanceWindows {
            nights = List.copyOf(nights);
        }
    }

    /**
     * One night's backup window against the business start that followed it.
     *
     * @param kind          FULL or DIFFERENTIAL night
     * @param lastFinish    end of the last backup, or the time of the report while one still runs
     * @param marginSeconds business start minus window end; negative for a breach
     * @param stillRunning  a backup of this night had not finished at the last report
     */
    public record Night(
            LocalDate morning,
            String kind,
            Instant businessStart,
            Instant firstStart,
            Instant lastFinish,
            long marginSeconds,
            boolean stillRunning) {
    }

    /**
     * The margin's trend over the comparable nights and its projection.
     *
     * @param kind                   the kind of nights it was fitted on (FULL or DIFFERENTIAL)
     * @param slopeMinutesPerDay     negative when the window creeps toward business hours
     * @param latestMorning          the last fitted night
     * @param projectedMarginMinutes the trend's margin at {@code latestMorning}
     * @param forecastDate           the first night projected under the safety margin; null when not shrinking
     * @param daysUntilForecast      days from today to {@code forecastDate}; null with it
     */
    public record Trend(
            String kind,
            double slopeMinutesPerDay,
            int nights,
            LocalDate latestMorning,
            double projectedMarginMinutes,
            LocalDate forecastDate,
            Long daysUntilForecast) {
    }

    /**
     * How one database's backups did with one compression algorithm, over the page's period.
     *
     * @param ratio total uncompressed bytes over total compressed bytes; 1.0 when uncompressed
     */
    public record AlgorithmRow(
            String host,
            String instance,
            String database,
            String algorithm,
            int backups,
            double meanDurationSeconds,
            double meanThroughputMbps,
            double ratio,
            long latestSizeBytes) {
    }
}
