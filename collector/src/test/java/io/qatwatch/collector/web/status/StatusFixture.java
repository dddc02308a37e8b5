package io.qatwatch.collector.web.status;

import io.qatwatch.collector.web.status.StatusView.ActiveAlert;
import io.qatwatch.collector.web.status.StatusView.Fact;
import io.qatwatch.collector.web.status.StatusView.HostRow;
import io.qatwatch.collector.web.status.StatusView.InstanceWindows;
import io.qatwatch.collector.web.status.StatusView.Night;
import io.qatwatch.collector.web.status.StatusView.QatState;
import io.qatwatch.collector.web.status.StatusView.SqlInstanceRow;
import io.qatwatch.collector.web.status.StatusView.Trend;
import io.qatwatch.collector.web.FleetQuery;
import io.qatwatch.collector.web.FleetStatus;
import io.qatwatch.collector.web.HostState;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A fleet as the status page would see it on a Monday morning in Berlin: one instance creeping toward
 * business hours (one breach already), one steady, a QAT fallback, a licence grey zone, and a host
 * name that tries to inject markup.
 */
final class StatusFixture {

    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    static final Instant NOW = Instant.parse("2026-11-30T06:30:00Z");
    static final LocalDate TODAY = LocalDate.of(2026, 11, 30);
    static final String HOSTILE_HOST = "<script>alert('x')</script>";
    static final double SAFETY_MINUTES = 30;

    private StatusFixture() {
    }

    static StatusView view() {
        return of(NOW, fleet(), alerts(), List.of(creeping(), steady()), compression());
    }

    /** A page that is the whole fleet: one page, no filter, no host group, each host counted by its state. */
    static StatusView of(Instant now, List<HostRow> fleet, List<ActiveAlert> alerts, List<InstanceWindows> windows,
            StatusView.Compression compression) {
        Map<HostState, Integer> byState = new EnumMap<>(HostState.class);
        fleet.forEach(h -> byState.merge(HostState.parse(h.state()), 1, Integer::sum));
        return new StatusView(now, new FleetStatus.Summary(fleet.size(), byState, List.of()),
                new StatusView.Paging(new FleetQuery(null, 50, null, null, null), 50, null, alerts.size()),
                fleet, alerts, windows, compression, List.of());
    }

    static List<HostRow> fleet() {
        return List.of(
                new HostRow("sql01", "critical", "prod", List.of("env=prod", "site=fra"), "GenuineIntel", new QatState(2, 2, true), "INTEL_QAT_HARDWARE",
                        List.of(new SqlInstanceRow("MSSQLSERVER", "16.0.4135.4", "HARDWARE", "Hardware mode"),
                                new SqlInstanceRow("REPORTING", "16.0.4135.4", "SOFTWARE", "Hardware not found")),
                        NOW.minusSeconds(40)),
                new HostRow("sql02", "ok", "prod", List.of(), "AuthenticAMD", new QatState(0, 0, false), "INTEL_COMPONENT_ONLY",
                        List.of(new SqlInstanceRow("MSSQLSERVER", "16.0.4135.4", "SOFTWARE", "Software mode forced")),
                        NOW.minusSeconds(300)),
                new HostRow(HOSTILE_HOST, "silent", null, List.of(), null, null, null, List.of(), NOW.minusSeconds(3 * 86_400)));
    }

    static List<ActiveAlert> alerts() {
        return List.of(
                new ActiveAlert("a1b2c3d4", "backup-window-creep", "warning", "sql01", "MSSQLSERVER", null,
                        "Nightly backups of sql01 / MSSQLSERVER end 9 min later every day",
                        "Over the last 30 nights the margin to business start shrank by 9.1 min per day; "
                                + "at this pace it falls under the 30 min safety margin on Sat 5 Dec 2026. "
                                + "Sales drives it: its full backup grew 4.1 % per week.",
                        List.of(new Fact("slope", "-9.1 min/day"), new Fact("nights", "30"),
                                new Fact("forecast", "2026-12-05 (in 5 days)"), new Fact("driver", "Sales +4.1 %/week")),
                        NOW.minusSeconds(3 * 3600)),
                new ActiveAlert("e5f6a7b8", "qat-fallback", "critical", "sql01", "REPORTING", null,
                        "QAT fell back to software on sql01 / REPORTING",
                        "sys.dm_server_accelerator_status says SOFTWARE (Hardware not found) while the host has 2 QAT devices up.",
                        List.of(), NOW.minusSeconds(1200)));
    }

    /** 30 nights; the window end moves 9 minutes a day toward the 07:00 business start; one bad night breached, one came close. */
    static InstanceWindows creeping() {
        List<Night> nights = new ArrayList<>();
        for (int i = 29; i >= 0; i--) {
            LocalDate morning = TODAY.minusDays(i);
            boolean weekendFull = morning.getDayOfWeek() == DayOfWeek.SUNDAY;
            ZonedDateTime businessStart = ZonedDateTime.of(morning, LocalTime.of(7, 0), BERLIN);
            ZonedDateTime start = businessStart.minusHours(weekendFull ? 9 : 8);
            long endMinutes = -330 + (29 - i) * 9L + (i == 1 ? 100 : i == 3 ? 75 : 0);
            ZonedDateTime end = businessStart.plusMinutes(endMinutes);
            nights.add(new Night(morning, weekendFull ? "FULL" : "DIFFERENTIAL", businessStart.toInstant(), start.toInstant(),
                    end.toInstant(), -endMinutes * 60, false));
        }
        Trend trend = new Trend("DIFFERENTIAL", -9.1, 30, TODAY, 69, TODAY.plusDays(5), 5L);
        return new InstanceWindows("sql01", "MSSQLSERVER", BERLIN, SAFETY_MINUTES, nights, trend);
    }

    /** 30 steady nights ending around 03:00, the last one still running. */
    static InstanceWindows steady() {
        List<Night> nights = new ArrayList<>();
        for (int i = 29; i >= 0; i--) {
            LocalDate morning = TODAY.minusDays(i);
            ZonedDateTime businessStart = ZonedDateTime.of(morning, LocalTime.of(7, 0), BERLIN);
            ZonedDateTime start = businessStart.minusHours(6);
            ZonedDateTime end = businessStart.minusMinutes(240 + (i % 5) * 6);
            nights.add(new Night(morning, "FULL", businessStart.toInstant(), start.toInstant(), end.toInstant(),
                    (businessStart.toEpochSecond() - end.toEpochSecond()), i == 0));
        }
        Trend trend = new Trend("FULL", 0.2, 30, TODAY, 252, null, null);
        return new InstanceWindows("sql02", "MSSQLSERVER", BERLIN, SAFETY_MINUTES, nights, trend);
    }

    /**
     * Sales on sql01: QAT_DEFLATE tested with copy-only backups, twice as fast to the share; HR on sql02: one algorithm,
     * counted but not listed, as the fleet page has it ({@link #hr()} is its row on the host page).
     */
    static StatusView.Compression compression() {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        for (String v : List.of("FASTER_AND_SMALLER", "FASTER", "SMALLER", "NO_GAIN", "SLOWER", "NOT_ENOUGH_DATA")) {
            counts.put(v, v.equals("FASTER") ? 1 : 0);
        }
        return new StatusView.Compression(List.of(new StatusView.FleetVerdict("QAT_DEFLATE (HARDWARE)", "UNC", counts)),
                "restorable on 1 of 3 probed hosts: sql01",
                List.of(new StatusView.HostCompression("sql01", "QAT_DEFLATE (HARDWARE): faster to the share for 1 of 1 database",
                                true, List.of(new StatusView.CompressionRow("MSSQLSERVER", "Sales", "full", "UNC", "none", "FASTER",
                                        "QAT_DEFLATE (HARDWARE)", "MS_XPRESS", 109.2, 2.8, List.of(
                                                new StatusView.MethodCell("MS_XPRESS", 8, 0, 9_900, 221.7, 64.0, null),
                                                new StatusView.MethodCell("QAT_DEFLATE (HARDWARE)", 6, 6, 5_400, 412.3, 65.0, "FASTER"))))),
                        new StatusView.HostCompression("sql02", null, false, List.of(), Map.of("SINGLE_ALGORITHM", 1))));
    }

    /** HR on sql02, backed up with one algorithm: nothing compared. */
    static StatusView.CompressionRow hr() {
        return new StatusView.CompressionRow("MSSQLSERVER", "HR", "full", "LOCAL", "TDE", "SINGLE_ALGORITHM", null, "MS_XPRESS",
                null, null, List.of(new StatusView.MethodCell("MS_XPRESS", 30, 0, 640, 180.0, 52.4, null)));
    }
}
