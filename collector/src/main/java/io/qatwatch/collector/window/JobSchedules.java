package io.qatwatch.collector.window;

import io.qatwatch.protocol.SqlInstanceSnapshot.AgentJob;
import io.qatwatch.protocol.SqlInstanceSnapshot.JobSchedule;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The planned start of a night's backup window, from the SQL Server Agent schedules of the jobs that take full or
 * differential backups ({@code sysschedules}: daily or weekly, once a day at {@code active_start_time}). Pure.
 */
public final class JobSchedules {

    /** {@code freq_type}: daily, weekly. */
    private static final int DAILY = 4;
    private static final int WEEKLY = 8;
    /** {@code freq_subday_type}: once, at the start time. */
    private static final int ONCE_A_DAY = 1;

    private JobSchedules() {
    }

    /** The earliest scheduled start in {@code [from, to)}, and the job it belongs to. */
    public record PlannedStart(Instant at, String jobId, String jobName) {
    }

    /**
     * The first start a schedule of an enabled backup job (full or differential, or types not told) plans in
     * {@code [from, to)}; empty when none does. {@code active_start_time} is the server's local time: its UTC offset
     * comes from the schedule's {@code nextRunAt} (UTC) when the agent read one, else {@code zone} is assumed.
     */
    public static Optional<PlannedStart> plannedStart(List<AgentJob> jobs, Instant from, Instant to, ZoneId zone) {
        PlannedStart best = null;
        for (AgentJob job : jobs) {
            if (!job.enabled() || !job.backupJob() || !takesFullOrDifferential(job) || job.schedules() == null) {
                continue;
            }
            for (JobSchedule s : job.schedules()) {
                Instant at = first(s, from, to, zone);
                if (at != null && (best == null || at.isBefore(best.at()))) {
                    best = new PlannedStart(at, job.jobId(), job.name());
                }
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean takesFullOrDifferential(AgentJob job) {
        List<String> types = job.backupTypes();
        return types == null || types.isEmpty() || types.stream().anyMatch(t -> {
            String u = t.toUpperCase(Locale.ROOT);
            return u.equals("FULL") || u.equals("DIFF");
        });
    }

    /** The schedule's first run in {@code [from, to)}, or null. */
    static Instant first(JobSchedule s, Instant from, Instant to, ZoneId zone) {
        if (!s.enabled() || (s.freqType() != DAILY && s.freqType() != WEEKLY) || s.freqSubdayType() != ONCE_A_DAY) {
            return null;
        }
        LocalTime time;
        try {
            time = LocalTime.parse(s.activeStartTime());
        } catch (DateTimeParseException | NullPointerException e) {
            return null;
        }
        ZoneOffset fixed = s.nextRunAt() == null ? null : offset(s.nextRunAt(), time);
        LocalDate day = from.atZone(zone).toLocalDate().minusDays(1);
        LocalDate last = to.atZone(zone).toLocalDate().plusDays(1);
        for (; !day.isAfter(last); day = day.plusDays(1)) {
            LocalDateTime local = LocalDateTime.of(day, time);
            Instant at = fixed != null ? local.toInstant(fixed) : local.atZone(zone).toInstant();
            if (at.isBefore(from) || !at.isBefore(to) || !runsOn(s, day, fixed == null ? null : s.nextRunAt().atOffset(fixed).toLocalDate())) {
                continue;
            }
            return at;
        }
        return null;
    }

    /** Weekly: the weekday's bit of {@code freq_interval} (1 = Sunday ... 64 = Saturday). Daily: every N days from the next run. */
    private static boolean runsOn(JobSchedule s, LocalDate day, LocalDate nextRunDay) {
        if (s.freqType() == WEEKLY) {
            int bit = 1 << (day.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : day.getDayOfWeek().getValue());
            return (s.freqInterval() & bit) != 0;
        }
        int every = Math.max(1, s.freqInterval());
        return every == 1 || nextRunDay == null || Math.floorMod(ChronoUnit.DAYS.between(nextRunDay, day), every) == 0;
    }

    /**
     * The server's UTC offset when it computed {@code nextRunAt}: the quarter-hour offset that makes the instant's local
     * time the schedule's start time; null when none does (a schedule edited since).
     */
    static ZoneOffset offset(Instant nextRunAt, LocalTime time) {
        for (int quarters = -14 * 4; quarters <= 14 * 4; quarters++) {
            ZoneOffset o = ZoneOffset.ofTotalSeconds(quarters * 15 * 60);
            if (nextRunAt.atOffset(o).toLocalTime().equals(time)) {
                return o;
            }
        }
        return null;
    }

    /** Minutes from {@code planned} to {@code actual}: positive when it started late. */
    public static double lateMinutes(Instant planned, Instant actual) {
        return Duration.between(planned, actual).getSeconds() / 60.0;
    }
}
