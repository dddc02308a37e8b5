package io.qatwatch.bench;

import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceFacts.ComponentKind;
import io.qatwatch.protocol.LicenceFacts.IntelComponent;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatDevice;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.QatSoftware;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ServerInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One simulated SQL Server host as its agent reports it: one instance ({@code MSSQLSERVER}) with
 * {@value #DATABASES} databases on a QAT host, the sizes and names of a real estate. Deterministic by index;
 * one host in twenty has a creeping backup window.
 */
public final class SimulatedAgent {

    /** Databases per simulated instance. */
    public static final int DATABASES = 20;
    public static final String INSTANCE = "MSSQLSERVER";

    private static final String[] DATABASE_STEMS = {"Sales", "Billing", "CRM", "Inventory", "HR", "Payroll",
        "Logistics", "Reporting", "Audit", "Identity", "Catalog", "Orders", "Shipping", "Support", "Marketing",
        "Finance", "Warehouse", "Staging", "Archive", "Telemetry"};

    private final int index;
    private final List<DatabaseInfo> databases;
    private final long[] fullSizeBytes;

    public SimulatedAgent(int index) {
        this.index = index;
        this.databases = new ArrayList<>(DATABASES);
        this.fullSizeBytes = new long[DATABASES];
        for (int d = 0; d < DATABASES; d++) {
            String guid = new UUID(0x5157_0000_0000_0000L | index, 0x8000_0000_0000_0000L | d).toString();
            databases.add(new DatabaseInfo(DATABASE_STEMS[d], guid, d % 3 == 0 ? "SIMPLE" : "FULL",
                    d == 1 ? "ENCRYPTED" : "NONE", null, null, null));
            // 2 GiB .. 400 GiB, spread by index so hosts differ
            fullSizeBytes[d] = (2L << 30) + ((long) ((index * 31 + d * 17) % 200) << 31);
        }
    }

    /** The host's name, also its token name on the collector. */
    public String host() {
        return "sql" + index;
    }

    public List<DatabaseInfo> databases() {
        return databases;
    }

    /**
     * A regular cycle's report: host facts, QAT, licence, the instance with its databases and {@code backups}.
     *
     * @param highWaterMark the backup_set_id high-water mark after these backups
     */
    public AgentReport report(String reportId, Instant createdAt, List<BackupRecord> backups, long highWaterMark) {
        ServerInfo server = new ServerInfo("16.0.4135.4", 16, "Enterprise Edition: Core-based Licensing (64-bit)", 3,
                host().toUpperCase(), host().toUpperCase(), false);
        List<ConfigOption> configuration = List.of(
                new ConfigOption("hardware offload enabled", 1, 1),
                new ConfigOption("backup compression algorithm", 2, 2),
                new ConfigOption("backup compression default", 1, 1),
                new ConfigOption("backup checksum default", 1, 1));
        List<AcceleratorStatus> accelerators = List.of(new AcceleratorStatus("QAT", "HARDWARE",
                "HARDWARE_MODE_ENTERPRISE_SKU", true, "1.8.0-0010", "2.0.2.0"));
        SqlInstanceSnapshot instance = new SqlInstanceSnapshot(INSTANCE, createdAt, server, configuration,
                accelerators, databases, backups, List.of(), List.of(), highWaterMark);
        return new AgentReport(AgentReport.SCHEMA_VERSION, reportId, createdAt,
                new AgentInfo(host(), "0.1.0", 86_400, 0, 0, 0),
                hostFacts(), qat(), licence(), List.of(instance),
                List.of(ProbeStatus.ok("host", 41), ProbeStatus.ok("qat", 3), ProbeStatus.ok("licence", 1),
                        ProbeStatus.ok("sqlserver:" + INSTANCE + "/server", 8),
                        ProbeStatus.ok("sqlserver:" + INSTANCE + "/backup-history", 12)));
    }

    /** One host in twenty starts late and grows 3 % a night on slow storage: its window creeps; the rest grow 0.2 %. */
    private boolean creeping() {
        return index % 20 == 0;
    }

    private double growthPerNight() {
        return creeping() ? 0.03 : 0.002;
    }

    private long throughputBytesPerSecond() {
        return creeping() ? 100L << 20 : 400L << 20;
    }

    /**
     * The backup a database took on a night: a full on Sundays, a differential on other nights, starting
     * 22:00 UTC plus a stagger, its duration and size growing with the night number (the creep).
     */
    public BackupRecord nightlyBackup(long backupSetId, int database, int night, Instant firstNight) {
        boolean full = night % 7 == 0;
        long size = (long) (fullSizeBytes[database] * (1 + night * growthPerNight()) * (full ? 1.0 : 0.15));
        Instant start = firstNight.plus(Duration.ofDays(night)).plus(Duration.ofMinutes(database * 9L))
                .plus(creeping() ? Duration.ofHours(3) : Duration.ZERO);
        long seconds = Math.max(30, size / throughputBytesPerSecond());
        DatabaseInfo db = databases.get(database);
        return new BackupRecord(backupSetId, db.name(), db.databaseGuid(), full ? "D" : "I", false, start,
                start.plusSeconds(seconds), true, size, size * 32 / 100, "QAT_DEFLATE", true, null, null, null,
                "DISK", "UNC");
    }

    /**
     * The nightly backups of every database over {@code nights} nights from {@code firstNight} that have finished by
     * {@code now}, backup_set_ids 1, 2, ... in the order msdb would number them (night by night). msdb records a backup
     * once it has finished: a fill run between midnight and the creeping hosts' last backup (about 04:00 UTC) stored
     * their last night's backups with start times still to come, which the alert stage never summarises, so every
     * restart of the fleet100k bench rebuilt those hosts (one in twenty) from their rows.
     */
    public List<BackupRecord> nightlyHistory(int nights, Instant firstNight, Instant now) {
        List<BackupRecord> history = new ArrayList<>(nights * DATABASES);
        long id = 1;
        for (int night = 0; night < nights; night++) {
            for (int d = 0; d < DATABASES; d++) {
                BackupRecord b = nightlyBackup(id++, d, night, firstNight);
                if (!b.finishedAt().isAfter(now)) {
                    history.add(b);
                }
            }
        }
        return history;
    }

    /** The evening the first of {@code nights} nights ending at {@code now} begins: 22:00 UTC. */
    public static Instant firstNight(Instant now, int nights) {
        return now.truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(nights)).plus(Duration.ofHours(22));
    }

    /**
     * The latest log backup of each database in full recovery, finished minutes before {@code now}, ids from
     * {@code firstId}: what keeps the backup-missing rule quiet about logs.
     */
    public List<BackupRecord> latestLogBackups(long firstId, Instant now) {
        List<BackupRecord> logs = new ArrayList<>();
        for (int d = 0; d < DATABASES; d++) {
            if (!"SIMPLE".equals(databases.get(d).recoveryModel())) {
                logs.add(logBackup(firstId + logs.size(), d, now.minus(Duration.ofMinutes(10 + d))));
            }
        }
        return logs;
    }

    /** A 40-second log backup of a database, finished at {@code finishedAt}. */
    private BackupRecord logBackup(long backupSetId, int database, Instant finishedAt) {
        DatabaseInfo db = databases.get(database);
        long size = 256L << 20;
        return new BackupRecord(backupSetId, db.name(), db.databaseGuid(), "L", false, finishedAt.minusSeconds(40),
                finishedAt, true, size, size / 4, "QAT_DEFLATE", true, null, null, null, "DISK", "UNC");
    }

    private HostFacts hostFacts() {
        return new HostFacts(host(), new HostFacts.Cpu("GenuineIntel", "Intel(R) Xeon(R) Gold 6448Y", 2, 128),
                new HostFacts.SystemInfo("Dell Inc.", "PowerEdge R760"), null,
                new HostFacts.OperatingSystem("windows", "Microsoft Windows Server 2022 Datacenter", "10.0.20348"),
                549_755_813_888L);
    }

    private static QatFacts qat() {
        QatDevice device = new QatDevice("PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\6&1a2b3c4d&0&00000008",
                "8086:4940", QatDevice.PciFunction.PF, "4xxx", "4xxx QuickAssist", "icp_qat4", null, List.of());
        QatSoftware software = new QatSoftware(
                List.of(new QatSoftware.SoftwareItem("icp_qat4", "\\SystemRoot\\System32\\drivers\\icp_qat4.sys", null,
                        "running")),
                List.of(), List.of(),
                List.of(new QatSoftware.SoftwareItem("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.8.0.10", null)),
                List.of(), List.of(), List.of());
        return new QatFacts(List.of(device), software, true);
    }

    private static LicenceFacts licence() {
        return new LicenceFacts(LicenceVerdict.INTEL_QAT_HARDWARE,
                List.of(new IntelComponent(ComponentKind.CPU, null, "Intel(R) Xeon(R) Gold 6448Y", false),
                        new IntelComponent(ComponentKind.QAT, "8086:4940", "4xxx QuickAssist", false)),
                true, List.of("Intel QAT hardware present: the QAT driver is used with an Intel component."));
    }
}
