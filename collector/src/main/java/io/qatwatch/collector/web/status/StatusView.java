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
 * @param compression the compression verdicts: the fleet's, and per database of the page's hosts; null while the
 *                    alert stage has not evaluated (or is not wired)
 * @param channels   each chat channel's deliveries since the collector started; empty without the alert stage
 */
public record StatusView(
        Instant renderedAt,
        FleetStatus.Summary summary,
        Paging paging,
        List<HostRow> fleet,
        List<ActiveAlert> alerts,
        List<InstanceWindows> windows,
        Compression compression,
        List<AlertsView.ChannelHealth> channels) {

    public StatusView {
        fleet = List.copyOf(fleet);
        alerts = List.copyOf(alerts);
        windows = List.copyOf(windows);
        channels = channels == null ? List.of() : List.copyOf(channels);
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
     * @param noWindow            why an instance without nights has none (its backups run on another replica), or null
     */
    public record InstanceWindows(
            String host,
            String instance,
            ZoneId zone,
            double safetyMarginMinutes,
            List<Night> nights,
            Trend trend,
            List<RestoreTest> restoreTests,
            String noWindow) {

        public InstanceWindows {
            nights = List.copyOf(nights);
            restoreTests = restoreTests == null ? List.of() : List.copyOf(restoreTests);
        }

        /** An instance with windows (or none, for no reason to give). */
        public InstanceWindows(String host, String instance, ZoneId zone, double safetyMarginMinutes, List<Night> nights,
                               Trend trend, List<RestoreTest> restoreTests) {
            this(host, instance, zone, safetyMarginMinutes, nights, trend, restoreTests, null);
        }

        /** An instance's windows without restore tests. */
        public InstanceWindows(String host, String instance, ZoneId zone, double safetyMarginMinutes, List<Night> nights,
                               Trend trend) {
            this(host, instance, zone, safetyMarginMinutes, nights, trend, List.of());
        }
    }

    /**
     * The last restore test of one of the instance's databases anywhere in the fleet.
     *
     * @param restoredAt null when no host restored its backups in the lookback period
     * @param where      {@code host/instance} that restored it, and as which database
     */
    public record RestoreTest(String database, Instant restoredAt, String where) {
    }

    /**
     * One night's backup window against the business start that followed it.
     *
     * @param kind          FULL or DIFFERENTIAL night; null for a night whose only backup still runs
     * @param lastFinish    end of the last backup, or the time of the report while one still runs
     * @param marginSeconds business start minus window end (so far, while one still runs); negative for a breach
     * @param stillRunning  a backup of this night had not finished at the last report
     * @param running       the backup still running and where it is predicted to end; null when none runs
     */
    public record Night(
            LocalDate morning,
            String kind,
            Instant businessStart,
            Instant firstStart,
            Instant lastFinish,
            long marginSeconds,
            boolean stillRunning,
            List<JobMark> jobs,
            Running running) {

        public Night {
            jobs = jobs == null ? List.of() : List.copyOf(jobs);
        }

        /** A night without a running backup. */
        public Night(LocalDate morning, String kind, Instant businessStart, Instant firstStart, Instant lastFinish,
                     long marginSeconds, boolean stillRunning, List<JobMark> jobs) {
            this(morning, kind, businessStart, firstStart, lastFinish, marginSeconds, stillRunning, jobs, null);
        }

        /** A night without overlapping jobs. */
        public Night(LocalDate morning, String kind, Instant businessStart, Instant firstStart, Instant lastFinish,
                     long marginSeconds, boolean stillRunning) {
            this(morning, kind, businessStart, firstStart, lastFinish, marginSeconds, stillRunning, List.of(), null);
        }

        /** The margin to colour the night by: the predicted one while a backup runs. */
        public long judgedMarginSeconds() {
            return running == null ? marginSeconds : running.predictedMarginSeconds();
        }
    }

    /**
     * A backup running at the last report, as the spill forecast saw it.
     *
     * @param startedAt              its start
     * @param seenAt                 the report that saw it running ("now" on the chart)
     * @param predictedWindowEnd     where the night's window is predicted to end (its finish plus the tail)
     * @param predictedMarginSeconds business start minus the predicted end; negative predicts a spill
     */
    public record Running(String database, Instant startedAt, Instant seenAt, double percentComplete,
                          Instant predictedWindowEnd, long predictedMarginSeconds) {
    }

    /** A run of a job that does not back up, clipped to the night's window: the chart marks it beside the bar. */
    public record JobMark(String job, Instant from, Instant to) {
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
     * "Is QAT worth it here?": the fleet's verdicts per method and target, the restore burden, and the page's hosts'
     * verdicts with their databases.
     *
     * @param fleet         per method (against each row's baseline) and target, the fleet's databases per verdict
     * @param restoreBurden which hosts could restore a QAT_DEFLATE backup: "restorable on 3 of 12 probed hosts: a, b, c"
     * @param hosts         the page's hosts that have a comparison, in display order
     */
    public record Compression(List<FleetVerdict> fleet, String restoreBurden, List<HostCompression> hosts) {

        public Compression {
            fleet = List.copyOf(fleet);
            hosts = List.copyOf(hosts);
        }
    }

    /**
     * Databases per verdict of one method to one kind of target, over the fleet's full backups.
     *
     * @param verdicts verdict name to databases, in the order the table shows them
     */
    public record FleetVerdict(String method, String target, java.util.Map<String, Integer> verdicts) {
    }

    /**
     * One host's verdict and its databases' comparisons.
     *
     * @param summary    e.g. "QAT_DEFLATE (HARDWARE): faster to local disk for 6 of 8 databases"; null when nothing compared
     * @param qatBackups the host takes QAT_DEFLATE backups, so the restore burden applies to it
     * @param rows       the rows shown: all of them (the host page), or those that compare algorithms (the fleet page)
     * @param verdicts   verdict name to how many of all the host's rows got it, shown ones or not, best first
     */
    public record HostCompression(String host, String summary, boolean qatBackups, List<CompressionRow> rows,
                                  java.util.Map<String, Integer> verdicts) {

        public HostCompression {
            rows = List.copyOf(rows);
            verdicts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(verdicts));
        }

        /** A host whose rows are all shown. */
        public HostCompression(String host, String summary, boolean qatBackups, List<CompressionRow> rows) {
            this(host, summary, qatBackups, rows, verdictCounts(rows));
        }

        /** How many of {@code rows} got each verdict, in the verdicts' order (best first); verdicts no row got left out. */
        public static java.util.Map<String, Integer> verdictCounts(List<CompressionRow> rows) {
            java.util.Map<String, Integer> counts = new java.util.LinkedHashMap<>();
            for (io.qatwatch.collector.compression.Verdict v : io.qatwatch.collector.compression.Verdict.values()) {
                int n = (int) rows.stream().filter(r -> v.name().equals(r.verdict())).count();
                if (n > 0) {
                    counts.put(v.name(), n);
                }
            }
            return counts;
        }

        /** The host's rows in all, shown or not. */
        public int rowsInAll() {
            return verdicts.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** Whether it compared anything or takes QAT_DEFLATE backups: what the fleet page gives a card of its own. */
        public boolean worthACard() {
            return summary != null || qatBackups || !rows.isEmpty();
        }
    }

    /**
     * One database's backups of one kind to one kind of target with one encryption, compared.
     *
     * @param encryption  "TDE", "backup encrypted", "TDE, backup encrypted", "none", or "TDE unknown"
     * @param verdict     a {@code Verdict} name
     * @param alternative the method the verdict is about; null with SINGLE_ALGORITHM
     * @param cpuGainPercent the alternative's CPU gain; null when CPU was not observed on enough backups of both
     */
    public record CompressionRow(String instance, String database, String backupType, String target, String encryption,
                                 String verdict, String alternative, String baseline, Double speedGainPercent,
                                 Double sizeGainPercent, Double cpuGainPercent, List<MethodCell> methods) {

        public CompressionRow {
            methods = List.copyOf(methods);
        }

        /** Without CPU observed. */
        public CompressionRow(String instance, String database, String backupType, String target, String encryption,
                              String verdict, String alternative, String baseline, Double speedGainPercent,
                              Double sizeGainPercent, List<MethodCell> methods) {
            this(instance, database, backupType, target, encryption, verdict, alternative, baseline, speedGainPercent,
                    sizeGainPercent, null, methods);
        }
    }

    /** How one method's backups of a row did: count, medians, and its verdict against the baseline (null for it). */
    public record MethodCell(String method, int backups, int copyOnlyBackups, double medianSeconds, double medianMbps,
                             double savedPercent, String verdict) {
    }
}
