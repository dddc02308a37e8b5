package io.qatwatch.collector.dashboards;

import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.compression.VerdictThresholds;
import io.qatwatch.collector.dashboards.GrafanaDashboards.Selection;
import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.influx.InfluxPoints;
import io.qatwatch.collector.store.RestoreObservation;
import io.qatwatch.collector.store.StoredBackup;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupCpu;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ObservedRestore;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The points the dashboards are tested on, all encoded by the collector's own {@link InfluxPoints}: 30 nights
 * of reports from three hosts built from the golden report (a QAT host, an AMD host in the licence grey
 * zone, an Intel host outside any group), the nightly windows, creep trends and compression verdicts of their
 * instances, restores matched to their backups and not, and alerts; and the selections a user would make over them.
 */
final class DashboardScenario {

    static final Instant FROM = Instant.parse("2026-10-01T00:00:00Z");
    static final Instant TO = Instant.parse("2026-12-01T00:00:00Z");
    static final String PICKED_GROUP = "prod";
    static final String PICKED_HOST = "sql01";
    static final String UNGROUPED_HOST = "sql03";
    static final int NIGHTS = 30;

    private static final LocalDate FIRST_MORNING = LocalDate.of(2026, 10, 31);
    private static final LocalTime BUSINESS_START = LocalTime.of(7, 0);

    /** One scenario host: where it stands on QAT and licence, and how its instances compress. */
    private record Host(String name, String group, String cpuVendor, boolean qatDevice, LicenceVerdict verdict,
                        List<String> instances, String mode, String reason, String salesAlgorithm) {
    }

    private static final List<Host> HOSTS = List.of(
            new Host("sql01", "prod", "GenuineIntel", true, LicenceVerdict.INTEL_QAT_HARDWARE,
                    List.of("MSSQLSERVER", "REPORTING"), "HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU", "QAT_DEFLATE"),
            new Host("sql02", "prod", "AuthenticAMD", false, LicenceVerdict.INTEL_COMPONENT_ONLY,
                    List.of("MSSQLSERVER"), "SOFTWARE", "SOFTWARE_MODE_FORCED", "QAT_DEFLATE"),
            new Host("sql03", null, "GenuineIntel", false, LicenceVerdict.INTEL_CPU,
                    List.of("MSSQLSERVER"), "NONE", "ACCELERATOR_DISABLED", "MS_XPRESS"));

    private DashboardScenario() {
    }

    static Selection wholeFleet() {
        return new Selection(FROM, TO, Map.of());
    }

    static Selection oneDatabase() {
        return new Selection(FROM, TO, Map.of("group", List.of(PICKED_GROUP), "host", List.of(PICKED_HOST),
                "instance", List.of("MSSQLSERVER"), "database", List.of("Sales"), "type", List.of("full")));
    }

    /** Every point of the scenario, one line each. */
    static String lineProtocol() {
        List<String> lines = new ArrayList<>();
        for (Host host : HOSTS) {
            for (int night = 0; night < NIGHTS; night++) {
                AgentReport report = report(host, night);
                lines.addAll(InfluxPoints.lines(host.name(), host.group(), report, report.createdAt().plusSeconds(2 + night % 5)));
                for (SqlInstanceSnapshot instance : report.instances()) {
                    lines.add(window(host, instance, night));
                }
            }
            for (String instance : host.instances()) {
                lines.addAll(trends(host, instance));
                lines.addAll(compression(host, instance));
                lines.addAll(restores(host, instance));
            }
        }
        Instant lastMorning = businessStart(NIGHTS - 1);
        lines.add(InfluxPoints.alert(alert("backup-window-creep", Severity.WARNING, "sql01", null, "full",
                "Nightly backups of sql01 / MSSQLSERVER end 6 min later every day"), "prod", true, lastMorning.plusSeconds(1800)));
        Alert breach = alert("backup-window-breach", Severity.CRITICAL, "sql02", null, null,
                "The backup window of sql02 / MSSQLSERVER ran 12 min into business hours");
        lines.add(InfluxPoints.alert(breach, "prod", true, lastMorning.minus(Duration.ofDays(3))));
        lines.add(InfluxPoints.alert(breach, "prod", false, lastMorning.minus(Duration.ofDays(2))));
        lines.add(InfluxPoints.alert(alert("backup-window-spill-forecast", Severity.WARNING, "sql03", "Sales", null,
                "The running full backup of Sales is projected to end at 07:40"), null, true, lastMorning.minusSeconds(1200)));
        return String.join("\n", lines) + "\n";
    }

    private static Alert alert(String rule, Severity severity, String host, String database, String subject, String summary) {
        return new Alert(rule, severity, host, "MSSQLSERVER", database, subject, summary, "why", List.of(), List.of());
    }

    /** The report sent the morning after night {@code night}: host facts, both databases' full backups, accelerator state. */
    private static AgentReport report(Host host, int night) {
        AgentReport golden = GoldenReports.complete();
        Instant created = businessStart(night).minus(Duration.ofHours(1));
        List<SqlInstanceSnapshot> instances = new ArrayList<>();
        for (String name : host.instances()) {
            SqlInstanceSnapshot template = golden.instances().get(0);
            List<RunningBackup> running = night == NIGHTS - 1 && "MSSQLSERVER".equals(name)
                    ? List.of(new RunningBackup(71, "BACKUP LOG", "Sales", created.minusSeconds(300), 45.5, 300, 360L))
                    : List.of();
            instances.add(new SqlInstanceSnapshot(name, created, template.server(), template.configuration(),
                    List.of(new AcceleratorStatus("QAT", host.mode(), host.reason(), host.qatDevice(), "1.8.0-0010", "2.0.2.0")),
                    template.databases(), backups(host, name, night), running, List.of(), (long) night * 10 + 2));
        }
        HostFacts facts = new HostFacts(host.name(), new HostFacts.Cpu(host.cpuVendor(),
                host.cpuVendor().equals("AuthenticAMD") ? "AMD EPYC 9354" : "Intel(R) Xeon(R) Gold 6448Y", 2, 64),
                golden.host().system(), null, golden.host().os(), golden.host().memoryBytes());
        QatFacts qat = host.qatDevice() ? golden.qat() : new QatFacts(List.of(), golden.qat().software(), false);
        LicenceFacts licence = new LicenceFacts(host.verdict(), golden.licence().intelComponents(), true, List.of());
        List<ProbeStatus> probes = new ArrayList<>(golden.probes());
        if (night % 7 == 3) {
            probes.add(new ProbeStatus("sqlserver:" + host.instances().get(0), false, 15_000, "Login timeout expired", null));
        }
        AgentInfo agent = new AgentInfo(host.name(), "0.1.0", 86_400L * (night + 1), night % 4, night / 10, 0);
        return new AgentReport(AgentReport.SCHEMA_VERSION, host.name() + "-night-" + night, created, agent, facts, qat,
                licence, instances, probes);
    }

    /**
     * The compression verdicts of one instance after the last night, as the alert stage computes and writes them:
     * sql01 switched Sales from MS_XPRESS to QAT_DEFLATE after ten nights, so its Sales row compares the two.
     */
    private static List<String> compression(Host host, String instance) {
        CompressionSamples samples = new CompressionSamples(60);
        QatModes modes = QatModes.constant(host.mode());
        for (int night = 0; night < NIGHTS; night++) {
            backups(host, instance, night).forEach(b -> samples.add(b, modes));
        }
        List<String> out = new ArrayList<>();
        Instant evaluated = businessStart(NIGHTS - 1).plusSeconds(3600);
        for (Comparison c : samples.comparisons(FROM, Map.of(), VerdictThresholds.DEFAULTS)) {
            for (Comparison.Entry e : c.algorithms()) {
                if (e.judgement() != null || c.algorithms().size() == 1) {
                    out.add(InfluxPoints.compression(host.name(), host.group(), instance, c, e, evaluated));
                }
            }
        }
        return out;
    }

    /**
     * A restore test of Sales into Sales_check after every seventh night, seen by the agent's polls and matched to the full
     * it restored: the restore's point and the matched one, as the collector writes them, at 500 MiB/s from an MS_XPRESS
     * full, 800 from a QAT_DEFLATE one in hardware mode, 350 in software mode. And a RESTORE LOG that no restorehistory
     * row names: the restore's point only.
     */
    private static List<String> restores(Host host, String instance) {
        List<String> out = new ArrayList<>();
        for (int night = 6; night < NIGHTS; night += 7) {
            BackupRecord sales = backups(host, instance, night).get(0);
            double mbps = !"QAT_DEFLATE".equals(sales.compressionAlgorithm()) ? 500 : host.mode().equals("HARDWARE") ? 800 : 350;
            long seconds = Math.round((sales.backupSizeBytes() >> 20) / mbps);
            Instant start = sales.finishedAt().plus(Duration.ofMinutes(30));
            ObservedRestore seen = new ObservedRestore("Sales_check", "RESTORE DATABASE", start, start.plusSeconds(seconds),
                    seconds, 100.0, null);
            out.add(InfluxPoints.restore(host.name(), host.group(), instance, seen));
            out.add(InfluxPoints.restoredBackup(host.name(), host.group(), new RestoreObservation(host.name(), instance,
                    seen.databaseName(), seen.command(), start, seen.lastSeenAt(), seconds, 100.0, null,
                    new StoredBackup(host.name(), instance, sales))));
        }
        Instant scratch = businessStart(NIGHTS - 1).minus(Duration.ofHours(2));
        out.add(InfluxPoints.restore(host.name(), host.group(), instance, new ObservedRestore("Scratch", "RESTORE LOG", scratch,
                scratch.plusSeconds(60), 60, 100.0, null)));
        return out;
    }

    /**
     * Sales starts at 22:00 and grows 6 minutes a night (on sql01 with MS_XPRESS for the first ten nights); HR
     * follows it for 40 minutes.
     */
    private static List<BackupRecord> backups(Host host, String instance, int night) {
        Instant salesStart = businessStart(night).minus(Duration.ofHours(9));
        Instant salesEnd = salesStart.plus(Duration.ofMinutes(180 + 6L * night));
        Instant hrEnd = salesEnd.plus(Duration.ofMinutes(40));
        long salesBytes = (400L + 4L * night) << 30;
        long id = night * 10L;
        String algorithm = host.name().equals("sql01") && night < 10 ? "MS_XPRESS" : host.salesAlgorithm();
        BackupRecord sales = new BackupRecord(id + 1, "Sales", null, "D", false, salesStart, salesEnd, true, salesBytes,
                salesBytes / ("QAT_DEFLATE".equals(algorithm) ? 4 : 3), algorithm, true,
                null, null, null, "DISK", "UNC");
        // seen by the polls from start to end: 2 CPU s/GB with MS_XPRESS, 43 % of that with QAT in hardware mode (Intel's
        // figure), 3 s/GB in software mode
        double cpuPerGb = !"QAT_DEFLATE".equals(algorithm) ? 2.0 : host.mode().equals("HARDWARE") ? 0.86 : 3.0;
        long cpu = Math.round(cpuPerGb * 1000 * (salesBytes >> 30));
        return List.of(
                sales.withCpu(new BackupCpu(cpu / 2, cpu / 2, 180, salesStart, salesEnd, cpu, 181, true, null)),
                new BackupRecord(id + 2, "HR", null, "D", false, salesEnd, hrEnd, true, 20L << 30, 8L << 30, "MS_XPRESS",
                        true, null, null, null, "DISK", "LOCAL"));
    }

    private static String window(Host host, SqlInstanceSnapshot instance, int night) {
        Instant first = instance.backups().stream().map(BackupRecord::startedAt).min(Instant::compareTo).orElseThrow();
        Instant last = instance.backups().stream().map(BackupRecord::finishedAt).max(Instant::compareTo).orElseThrow();
        return InfluxPoints.window(host.name(), host.group(), instance.name(), "office", first, last, businessStart(night),
                instance.backups().size());
    }

    /** A week of morning evaluations: the margin shrinks 6 min/day, so each projects a crossing. */
    private static List<String> trends(Host host, String instance) {
        List<String> out = new ArrayList<>();
        for (int night = NIGHTS - 7; night < NIGHTS; night++) {
            double marginMinutes = 9 * 60 - 220 - 6.0 * night;
            double days = (marginMinutes - 30) / 6.0;
            out.add(InfluxPoints.windowTrend(host.name(), host.group(), instance, NightKind.FULL,
                    businessStart(night).plusSeconds(1800), -6.0,
                    night + 1, days, businessStart(night).plus(Duration.ofMinutes(Math.round(days * 1440)))));
        }
        return out;
    }

    private static Instant businessStart(int night) {
        return FIRST_MORNING.plusDays(night).atTime(BUSINESS_START).toInstant(ZoneOffset.UTC);
    }
}
