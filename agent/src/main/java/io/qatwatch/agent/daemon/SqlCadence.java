package io.qatwatch.agent.daemon;

import io.qatwatch.agent.config.AgentConfig.Schedule;
import io.qatwatch.agent.probe.sqlserver.SqlSection;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Which SQL Server sections are due, and when the next one will be: inventory (server, databases,
 * certificates, Agent jobs and schedules), configuration (sp_configure, accelerator status) and backups (history,
 * running, job runs, CommandLog, restores), each on its own period. While a backlog is read (a page came back full),
 * the next page is due after the catch-up pause, unless the outbox is behind: then it waits for a delivery (see
 * {@link #outboxBehind}). Pure: the time is passed in.
 */
final class SqlCadence {

    /** A group of sections read together. */
    enum Group {
        INVENTORY(EnumSet.of(SqlSection.SERVER, SqlSection.DATABASES, SqlSection.CERTIFICATES, SqlSection.JOBS)),
        CONFIGURATION(EnumSet.of(SqlSection.CONFIGURATION, SqlSection.ACCELERATORS)),
        BACKUPS(EnumSet.of(SqlSection.BACKUP_HISTORY, SqlSection.RUNNING_BACKUPS, SqlSection.JOB_HISTORY, SqlSection.COMMAND_LOG,
                SqlSection.RESTORES));

        final Set<SqlSection> sections;

        Group(Set<SqlSection> sections) {
            this.sections = sections;
        }
    }

    private final Map<Group, Duration> periods = new EnumMap<>(Group.class);
    private final Map<Group, Instant> lastRun = new EnumMap<>(Group.class);
    private final Duration catchUp;
    private boolean catchingUp;
    private boolean outboxBehind;

    SqlCadence(Schedule schedule) {
        periods.put(Group.INVENTORY, schedule.sqlInventory());
        periods.put(Group.CONFIGURATION, schedule.sqlConfiguration());
        periods.put(Group.BACKUPS, schedule.sqlBackups());
        this.catchUp = schedule.backupCatchUp();
    }

    /** The sections due at {@code now}: everything on the first call, then each group when its period has passed. */
    Set<SqlSection> due(Instant now) {
        Set<SqlSection> due = EnumSet.noneOf(SqlSection.class);
        for (Group g : Group.values()) {
            if (isDue(g, now)) {
                due.addAll(g.sections);
            }
        }
        return due;
    }

    /** Records a read of {@code sections} at {@code at}; {@code moreBackups}: the history page was full. */
    void ran(Set<SqlSection> sections, Instant at, boolean moreBackups) {
        for (Group g : Group.values()) {
            if (sections.containsAll(g.sections)) {
                lastRun.put(g, at);
            }
        }
        if (sections.contains(SqlSection.BACKUP_HISTORY)) {
            catchingUp = moreBackups;
        }
    }

    /** True while a backlog of backup history is being read page by page. */
    boolean catchingUp() {
        return catchingUp;
    }

    /**
     * Whether the outbox holds more than the report being delivered. While catching up, the next page then waits
     * for a delivery instead of a timer: reading never runs ahead of the collector, so a large msdb cannot fill the
     * outbox (and have its oldest reports dropped) while the collector is slow or away.
     */
    void outboxBehind(boolean behind) {
        this.outboxBehind = behind;
    }

    /** How long from {@code now} until the next group is due (zero when one already is). */
    Duration untilNext(Instant now) {
        Duration next = null;
        for (Group g : Group.values()) {
            Instant last = lastRun.get(g);
            Duration period = period(g);
            if (period == null) {
                continue;
            }
            Duration wait = last == null ? Duration.ZERO : Duration.between(now, last.plus(period));
            if (next == null || wait.compareTo(next) < 0) {
                next = wait;
            }
        }
        return next.isNegative() ? Duration.ZERO : next;
    }

    private boolean isDue(Group g, Instant now) {
        Instant last = lastRun.get(g);
        Duration period = period(g);
        return last == null || period != null && !now.isBefore(last.plus(period));
    }

    /** The group's wait after its last run; null while it waits for a delivery instead. */
    private Duration period(Group g) {
        if (g != Group.BACKUPS || !catchingUp) {
            return periods.get(g);
        }
        return outboxBehind ? null : catchUp;
    }
}
