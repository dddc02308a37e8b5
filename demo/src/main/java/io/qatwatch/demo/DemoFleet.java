package io.qatwatch.demo;

import io.qatwatch.demo.SimulatedHost.Pci;
import io.qatwatch.demo.SimulatedServer.Backup;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's fleet, generated relative to the clock so that it tells the same story any day:
 * <ul>
 *   <li>{@code demo-sql-qat01} (Xeon with two QAT 4xxx, SQL Server 2022 Enterprise, hardware mode): the nightly
 *       window creeps 2 minutes a night toward business hours, driven by {@code Sales}; {@code SalesDW} moved from
 *       MS_XPRESS (499.6 s) to QAT_DEFLATE (238.6 s) two weeks ago, {@code Archive} to a share barely gained
 *       (19 min against 18);</li>
 *   <li>{@code demo-sql-amd01} (AMD EPYC with an Intel NIC, Standard edition, QAT in software mode): the full of
 *       {@code Warehouse} running now is predicted to spill past opening;</li>
 *   <li>{@code demo-sql-ag01} and {@code demo-sql-ag02}: availability group {@code ag-orders}; last night's
 *       copy-only full on the secondary ran 35 minutes into business hours.</li>
 * </ul>
 * Business hours are 07:00-19:00 every day in two fixed-offset zones picked so that, now, it is mid-morning in
 * one ({@link #BUSINESS_HOURS}) and before opening in the other ({@link #BEFORE_OPENING}).
 */
final class DemoFleet {

    static final String BUSINESS_HOURS = "demo-business-hours";
    static final String BEFORE_OPENING = "demo-before-opening";
    static final LocalTime OPENING = LocalTime.of(7, 0);
    static final LocalTime CLOSING = LocalTime.of(19, 0);
    /** Nights of history before today; the lookback the analysis uses is 60 days. */
    static final int NIGHTS = 45;
    private static final long MB = 1 << 20;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

    /** One host of the fleet: its simulated registry, its SQL Server instance and its calendar's group. */
    record Member(SimulatedHost host, SimulatedServer server, String group) {
    }

    final ZoneOffset businessHours;
    final ZoneOffset beforeOpening;
    final List<Member> members;

    private DemoFleet(ZoneOffset businessHours, ZoneOffset beforeOpening, List<Member> members) {
        this.businessHours = businessHours;
        this.beforeOpening = beforeOpening;
        this.members = List.copyOf(members);
    }

    static DemoFleet at(Clock clock) {
        Instant now = clock.instant();
        ZoneOffset day = whereItIs(now, 11);
        ZoneOffset night = whereItIs(now, 5);
        List<Member> members = List.of(
                new Member(qatHost(), qatServer(clock, day), BUSINESS_HOURS),
                new Member(amdHost(), amdServer(clock, night), BEFORE_OPENING),
                new Member(agHost("demo-sql-ag01"), agServer(clock, day, "demo-sql-ag01", true), BUSINESS_HOURS),
                new Member(agHost("demo-sql-ag02"), agServer(clock, day, "demo-sql-ag02", false), BUSINESS_HOURS));
        return new DemoFleet(day, night, members);
    }

    /** A whole-hour offset at which the local time now is within half an hour of {@code hour}:00. */
    static ZoneOffset whereItIs(Instant now, int hour) {
        ZonedDateTime utc = now.atZone(ZoneOffset.UTC);
        int local = utc.getMinute() < 30 ? hour : hour - 1;
        return ZoneOffset.ofHours(Math.floorMod(local - utc.getHour() + 12, 24) - 12);
    }

    /** The IANA name of a whole-hour offset ({@code Etc/GMT-5} is UTC+5: the sign is POSIX's). */
    static String zoneId(ZoneOffset offset) {
        int hours = offset.getTotalSeconds() / 3600;
        return hours == 0 ? "Etc/UTC" : "Etc/GMT" + (hours > 0 ? "-" : "+") + Math.abs(hours);
    }

    // --- hosts: what the agent's Windows probe reads ---

    private static final Pci QAT_4XXX = new Pci("8086", "4940", "0b4000", "@oem23.inf,%4xxx.devicedesc%;Intel(R) 4xxx Accelerator", "icp_qat4");
    private static final Pci E810 = new Pci("8086", "159B", "020000", "@oem12.inf,%e810.devicedesc%;Intel(R) Ethernet Controller E810-XXV for SFP", "icea");
    private static final Pci BROADCOM = new Pci("14E4", "16D7", "020000", "Broadcom NetXtreme E-Series Advanced Dual-port 25Gb", "bnxtnd");

    private static SimulatedHost qatHost() {
        return new SimulatedHost("demo-sql-qat01", "GenuineIntel", "Intel(R) Xeon(R) Gold 6430", 16, "Lenovo", "ThinkSystem SR650 V3")
                .pci(QAT_4XXX, 1).pci(QAT_4XXX, 2).pci(E810, 3)
                .service("icp_qat4", "\\SystemRoot\\System32\\drivers\\icp_qat4.sys", 3)
                .library("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.2.0.0");
    }

    private static SimulatedHost amdHost() {
        return new SimulatedHost("demo-sql-amd01", "AuthenticAMD", "AMD EPYC 9354 32-Core Processor", 16, "Dell Inc.", "PowerEdge R7625")
                .pci(E810, 1)
                .library("qatzip.dll", "C:\\Windows\\System32\\qatzip.dll", "1.2.0.0")
                .library("isa-l.dll", "C:\\Program Files\\Intel\\ISAL\\isa-l.dll", "2.31.0.0");
    }

    private static SimulatedHost agHost(String name) {
        return new SimulatedHost(name, "GenuineIntel", "Intel(R) Xeon(R) Gold 6338", 16, "HPE", "ProLiant DL380 Gen10 Plus")
                .pci(BROADCOM, 1);
    }

    // --- SQL Server instances ---

    private static SimulatedServer qatServer(Clock clock, ZoneOffset zone) {
        LocalDate today = clock.instant().atOffset(zone).toLocalDate();
        List<Backup> backups = new ArrayList<>();
        for (int k = -2; k < NIGHTS; k++) {
            LocalDate evening = today.minusDays(k + 1L);
            boolean onQat = k < 14;
            // Sales grows: 2 more minutes every night at 250 MB/s, so the window's end creeps toward 07:00
            long salesSeconds = (373 - 2L * k) * 60;
            LocalDateTime start = evening.atTime(23, 0);
            LocalDateTime end = start.plusSeconds(salesSeconds);
            backups.add(full("Sales", SALES, start, end, salesSeconds * 250 * MB, 2.9, "QAT_DEFLATE", disk("Sales", evening)));
            // the public measurement this project grew from: 499.6 s with MS_XPRESS, 238.6 s with QAT_DEFLATE
            double dw = onQat ? 238.6 : 499.6;
            LocalDateTime dwEnd = end.plusNanos((long) (dw * 1e9));
            backups.add(full("SalesDW", SALES_DW, end, dwEnd, 130_738_401_280L, onQat ? 2.95 : 3.11,
                    onQat ? "QAT_DEFLATE" : "MS_XPRESS", disk("SalesDW", evening)));
            // ... and to a file share, where the network decides: 19 minutes against 18
            LocalDateTime archiveEnd = dwEnd.plusMinutes(onQat ? 18 : 19);
            backups.add(full("Archive", ARCHIVE, dwEnd, archiveEnd, 214_748_364_800L, 2.6, onQat ? "QAT_DEFLATE" : "MS_XPRESS",
                    "\\\\demo-nas01\\backup\\demo-sql-qat01\\Archive_FULL_" + DAY.format(evening) + ".bak"));
        }
        return new SimulatedServer("demo-sql-qat01", "PROD", zone, clock, "16.0.4135.4",
                server("16.0.4135.4", "Enterprise Edition: Core-based Licensing (64-bit)", 3, "DEMO-SQL-QAT01", false),
                configuration(true, 2),
                List.of(accelerator("HARDWARE", "HARDWARE_MODE_ENTERPRISE_SKU", 1)),
                databases(List.of("Sales", SALES, "SalesDW", SALES_DW, "Archive", ARCHIVE), "SIMPLE"),
                List.of(), List.of(), backups);
    }

    private static SimulatedServer amdServer(Clock clock, ZoneOffset zone) {
        LocalDate today = clock.instant().atOffset(zone).toLocalDate();
        List<Backup> backups = new ArrayList<>();
        for (int k = -2; k < NIGHTS; k++) {
            LocalDate evening = today.minusDays(k + 1L);
            LocalDateTime reports = evening.atTime(22, 30);
            backups.add(full("Reports", REPORTS, reports, reports.plusMinutes(20), 96L * 1024 * MB, 3.0, "QAT_DEFLATE",
                    disk("Reports", evening)));
            // tonight (k = 0) the Warehouse full is slow: it runs now and will finish at 08:00, after opening
            long minutes = k == 0 ? 540 : 300 + 5L * Math.floorMod(k, 3);
            LocalDateTime start = evening.atTime(23, 0);
            backups.add(full("Warehouse", WAREHOUSE, start, start.plusMinutes(minutes), 2_400L * 1024 * MB, 2.7,
                    "QAT_DEFLATE", disk("Warehouse", evening)));
        }
        return new SimulatedServer("demo-sql-amd01", "PROD", zone, clock, "16.0.4135.4",
                server("16.0.4135.4", "Standard Edition (64-bit)", 2, "DEMO-SQL-AMD01", false),
                configuration(true, 2),
                List.of(accelerator("SOFTWARE", "SOFTWARE_MODE_NON_ENTERPRISE_SKU", 0)),
                databases(List.of("Reports", REPORTS, "Warehouse", WAREHOUSE), "SIMPLE"),
                List.of(), List.of(), backups).withJobs(List.of(INDEX_OPTIMIZE, INTEGRITY_CHECK), maintenanceRuns(today));
    }

    private static final SimulatedServer.Job INDEX_OPTIMIZE = new SimulatedServer.Job("5d0c7a1e-3b2f-4c8d-9e6a-1f2b3c4d5e6f",
            "IndexOptimize - USER_DATABASES", "Database Maintenance",
            "EXECUTE [dbo].[IndexOptimize] @Databases = 'USER_DATABASES', @LogToTable = 'Y'");
    private static final SimulatedServer.Job INTEGRITY_CHECK = new SimulatedServer.Job("7e1d8b2f-4c3a-4d9e-8f7b-2a3b4c5d6e7f",
            "DatabaseIntegrityCheck - USER_DATABASES", "Database Maintenance",
            "EXECUTE [dbo].[DatabaseIntegrityCheck] @Databases = 'USER_DATABASES', @LogToTable = 'Y'");

    /**
     * Ola Hallengren's maintenance inside the Warehouse window on demo-sql-amd01: IndexOptimize every night from 01:30,
     * a little longer each night (the job timeline shows it growing into the backups), and DatabaseIntegrityCheck on
     * Saturday nights from 23:30.
     */
    private static List<SimulatedServer.JobRun> maintenanceRuns(LocalDate today) {
        List<SimulatedServer.JobRun> runs = new ArrayList<>();
        for (int k = 0; k < NIGHTS; k++) {
            LocalDate morning = today.minusDays(k);
            LocalDateTime index = morning.atTime(1, 30);
            runs.add(new SimulatedServer.JobRun(INDEX_OPTIMIZE, index, index.plusMinutes(70 - k)));
            if (morning.getDayOfWeek() == java.time.DayOfWeek.SUNDAY) {
                LocalDateTime check = morning.minusDays(1).atTime(23, 30);
                runs.add(new SimulatedServer.JobRun(INTEGRITY_CHECK, check, check.plusMinutes(55)));
            }
        }
        return runs;
    }

    private static SimulatedServer agServer(Clock clock, ZoneOffset zone, String host, boolean primary) {
        LocalDate today = clock.instant().atOffset(zone).toLocalDate();
        List<Backup> backups = new ArrayList<>();
        if (!primary) {
            for (int k = -2; k < NIGHTS; k++) {
                LocalDate evening = today.minusDays(k + 1L);
                // the secondary takes the backups (a copy-only full is the only full it can take); last night's was slow
                long minutes = k == 0 ? 395 : 280 + 3L * Math.floorMod(k, 4);
                LocalDateTime start = evening.plusDays(1).atTime(1, 0);
                backups.add(new Backup("Orders", ORDERS, "D", true, start, start.plusMinutes(minutes), 900L * 1024 * MB,
                        300L * 1024 * MB, "MS_XPRESS", 2, disk("Orders", evening)));
            }
            LocalDateTime log = today.minusDays(NIGHTS).atStartOfDay();
            LocalDateTime last = today.plusDays(2).atStartOfDay();
            for (; log.isBefore(last); log = log.plusMinutes(30)) {
                backups.add(new Backup("Orders", ORDERS, "L", false, log, log.plusSeconds(20), 2L * 1024 * MB, 512 * MB,
                        "MS_XPRESS", 2, "D:\\Backup\\Orders\\Orders_LOG.trn"));
            }
        }
        List<Map<String, Object>> databases = databases(List.of("Orders", ORDERS), "FULL");
        // the same on both replicas: the database's identity within its availability group
        databases.get(0).put("group_database_id", "e1f2a3b4-c5d6-4e7f-8091-a2b3c4d5e6f7");
        return new SimulatedServer(host, "PROD", zone, clock, "16.0.4135.4",
                server("16.0.4135.4", "Enterprise Edition: Core-based Licensing (64-bit)", 3, host.toUpperCase(), true),
                configuration(false, 1),
                List.of(accelerator("NONE", "NONE_HARDWARE_OFFLOAD_NOT_ENABLED", 0)),
                databases, List.of(),
                List.of(Map.of("database_name", "Orders", "availability_group_id", "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
                        "availability_group", "ag-orders", "role_desc", primary ? "PRIMARY" : "SECONDARY",
                        "is_preferred_backup_replica", !primary)),
                backups);
    }

    private static final String SALES = "5d41402a-bc4b-4a76-b971-9d911017c592";
    private static final String SALES_DW = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
    private static final String ARCHIVE = "16fd2706-8baf-433b-82eb-8c7fada847da";
    private static final String REPORTS = "9a3b5c1d-2e4f-4a6b-8c7d-0e1f2a3b4c5d";
    private static final String WAREHOUSE = "b6a1e2f3-4c5d-4e6f-8a7b-9c0d1e2f3a4b";
    private static final String ORDERS = "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f";

    private static Backup full(String database, String guid, LocalDateTime start, LocalDateTime finish, long size,
            double ratio, String algorithm, String path) {
        return new Backup(database, guid, "D", false, start, finish, size, (long) (size / ratio), algorithm, 2, path);
    }

    private static String disk(String database, LocalDate evening) {
        return "D:\\Backup\\" + database + "\\" + database + "_FULL_" + DAY.format(evening) + ".bak";
    }

    private static Map<String, Object> server(String version, String edition, int engineEdition, String machine, boolean hadr) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("product_version", version);
        r.put("product_major_version", 16);
        r.put("edition", edition);
        r.put("engine_edition", engineEdition);
        r.put("machine_name", machine);
        r.put("server_name", machine + "\\PROD");
        r.put("is_hadr_enabled", hadr ? 1 : 0);
        return r;
    }

    private static List<Map<String, Object>> configuration(boolean offload, int algorithm) {
        return List.of(
                option("backup checksum default", 1),
                option("backup compression algorithm", algorithm),
                option("backup compression default", 1),
                option("hardware offload config", offload ? 1 : 0),
                option("hardware offload enabled", offload ? 1 : 0),
                option("hardware offload mode", 0));
    }

    private static Map<String, Object> option(String name, long value) {
        return Map.of("name", name, "value", value, "value_in_use", value);
    }

    private static Map<String, Object> accelerator(String mode, String reason, int hardware) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("accelerator", "QAT");
        r.put("mode_desc", mode);
        r.put("mode_reason_desc", reason);
        r.put("accelerator_hardware_detected", hardware);
        r.put("accelerator_library_version", mode.equals("NONE") ? null : "1.8.0-0010");
        r.put("accelerator_driver_version", hardware == 1 ? "2.0.2.0" : null);
        return r;
    }

    /**
     * The named databases with their GUIDs (name, guid, name, guid ...). The system databases are left out: the demo
     * would have to back them up too, or see them reported as missing backups.
     */
    private static List<Map<String, Object>> databases(List<String> namesAndGuids, String recovery) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < namesAndGuids.size(); i += 2) {
            rows.add(database(namesAndGuids.get(i), namesAndGuids.get(i + 1), recovery));
        }
        return rows;
    }

    /** One row for both databases.sql and database-guids.sql: each takes the columns it names. */
    private static Map<String, Object> database(String name, String guid, String recovery) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", name);
        r.put("database_name", name);
        r.put("database_id", 5 + Math.floorMod(guid.hashCode(), 1000));
        r.put("create_date", "2024-01-15T10:00:00");
        r.put("recovery_model_desc", recovery);
        r.put("state_desc", "ONLINE");
        r.put("is_auto_close_on", false);
        r.put("database_guid", guid);
        r.put("family_guid", guid);
        return r;
    }
}
