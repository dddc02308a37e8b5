package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.CreepTrend.DatabaseDriver;
import io.qatwatch.collector.window.JobOverlaps;
import io.qatwatch.collector.window.JobSchedules;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.TheilSen;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.SpillForecast;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** The three backup-window rules: breach, spill forecast and creep. */
final class WindowRules {

    static final String BREACH_WHY = "The nightly backup window ran into business hours: backups compete with the "
            + "working day for disk, network and CPU, and a restore point the business expected at opening is late.";
    static final String SPILL_WHY = "A backup running now is predicted, from its percent complete and elapsed time, "
            + "to finish after business hours start; there is still time to act (move or stop other jobs, add a "
            + "stripe, or warn the business).";
    static final String CREEP_WHY = "The margin between the end of the nightly backup window and the start of "
            + "business is shrinking night after night; at this rate it falls under the safety margin soon, weeks "
            + "before the morning a backup spills into business hours.";

    private WindowRules() {
    }

    /**
     * backup-window-breach: the latest finished night ended inside business hours, or a night's backup still runs in them.
     * It remembers between evaluations (one evaluator's, which are serialised) the breach of each instance's latest finished
     * night, by the identity of the instance's windows, and when the next night begins: while the windows, the latest
     * finished one among them (the windows are in night order, so the finished ones are those up to it), the calendar,
     * the jobs, the rules and the names are the same, the alert is the one made before. A backup still running is not
     * remembered: its minutes count up.
     */
    static final class Breach implements Rule {

        /** What the breach of one instance's latest finished night was made of; its alert made when first needed. */
        private record Made(List<NightlyWindow> windows, int last, BusinessCalendar calendar, JobActivity jobs,
                            RulesConfig rules, String host, String instance, Instant nextNight, Alert alert) {

            boolean madeOf(InstanceAnalysis ia, int last, RulesConfig rules) {
                return windows == ia.windows() && this.last == last && calendar == ia.calendar()
                        && jobs == ia.instance().jobs() && this.rules == rules && host.equals(ia.host().host())
                        && instance.equals(ia.instance().name());
            }

            /** The same breach with its alert, made once it is needed. */
            Made withAlert(Alert made) {
                return new Made(windows, last, calendar, jobs, rules, host, instance, nextNight, made);
            }
        }

        /** The last evaluation's breaches of a finished night, by the identity of their instance's windows. */
        private Map<List<NightlyWindow>, Made> made = new IdentityHashMap<>();

        @Override
        public List<Alert> evaluate(FleetAnalysis fleet, RulesConfig rules) {
            Map<List<NightlyWindow>, Made> next = new IdentityHashMap<>();
            List<Alert> out = new ArrayList<>();
            for (InstanceAnalysis ia : fleet.instances()) {
                RunningBackup running = stillRunningInBusinessHours(ia, fleet.now());
                if (running != null) {
                    out.add(stillRunning(ia, running, fleet.now(), rules));
                    continue;
                }
                int lastFinished = lastFinished(ia.windows(), fleet.now());
                if (lastFinished < 0 || !ia.windows().get(lastFinished).breached()) {
                    continue;
                }
                Made m = made.get(ia.windows());
                if (m == null || !m.madeOf(ia, lastFinished, rules)) {
                    NightlyWindow last = ia.windows().get(lastFinished);
                    m = new Made(ia.windows(), lastFinished, ia.calendar(), ia.instance().jobs(), rules, ia.host().host(),
                            ia.instance().name(), nextNight(last, ia.calendar()), null);
                }
                next.put(ia.windows(), m);
                if (!fleet.now().isBefore(m.nextNight())) {
                    // the next night has begun: the breach is history
                    continue;
                }
                if (m.alert() == null) {
                    m = m.withAlert(breached(ia, lastFinished, fleet.now(), rules));
                    next.put(ia.windows(), m);
                }
                out.add(m.alert());
            }
            made = next;
            return out;
        }
    }

    /** The breach of a backup still running in business hours. */
    private static Alert stillRunning(InstanceAnalysis ia, RunningBackup running, Instant now, RulesConfig rules) {
        BusinessCalendar cal = ia.calendar();
        List<NightlyWindow> finished = finished(ia.windows(), now);
        Instant at = ia.instance().collectedAt() == null ? now : ia.instance().collectedAt();
        BusinessCalendar.Night night = cal.nightContaining(running.startedAt()).orElseThrow();
        long overMinutes = Duration.between(night.businessStart(), at).toMinutes();
        return new Alert("backup-window-breach", rules.backupWindowBreach().severity(), ia.host().host(), ia.instance().name(),
                null, null,
                "Backup of " + running.databaseName() + " still running " + Fmt.minutes(overMinutes)
                        + " into business hours",
                BREACH_WHY,
                List.of(new Fact("Running", running.command() + " " + running.databaseName() + ", "
                                + Fmt.one(running.percentComplete()) + " % after " + Fmt.minutes(running.elapsedSeconds() / 60.0)),
                        new Fact("Started", Fmt.when(running.startedAt(), cal.zone())),
                        new Fact("Business started", Fmt.when(night.businessStart(), cal.zone()) + " (calendar " + cal.name() + ")")),
                margins(finished, 14));
    }

    /** The breach of the latest finished night, window {@code lastFinished} of the instance's. */
    private static Alert breached(InstanceAnalysis ia, int lastFinished, Instant now, RulesConfig rules) {
        RulesConfig.Breach cfg = rules.backupWindowBreach();
        BusinessCalendar cal = ia.calendar();
        NightlyWindow last = ia.windows().get(lastFinished);
        List<NightlyWindow> finished = finished(ia.windows(), now);
        NightlyWindow.DatabaseBackup lastOut = last.backups().stream()
                .max(java.util.Comparator.comparing(NightlyWindow.DatabaseBackup::finishedAt)).orElseThrow();
        List<Fact> facts = new ArrayList<>(List.of(
                new Fact("Window", Fmt.when(last.firstStart(), cal.zone()) + " → " + Fmt.when(last.lastFinish(), cal.zone())),
                        new Fact("Business start", Fmt.when(last.businessStart(), cal.zone()) + " (calendar " + cal.name() + ")"),
                        new Fact("Margin", Fmt.minutes(last.marginMinutes())),
                        new Fact("Last to finish", lastOut.database() + " (" + typeName(lastOut.type()) + ", "
                                + Fmt.minutes(lastOut.durationSeconds() / 60.0) + ", " + Fmt.bytes(lastOut.sizeBytes()) + ")")));
        Fact planned = plannedFact(ia, last, cfg.lateStartMinutes());
        if (planned != null) {
            facts.add(planned);
        }
        return new Alert("backup-window-breach", cfg.severity(), ia.host().host(), ia.instance().name(), null, null,
                "Backup window ended " + Fmt.minutes(-last.marginMinutes()) + " into business hours on " + last.morning(),
                BREACH_WHY, facts, margins(finished, 14));
    }

    /**
     * When the night after {@code last}'s begins. A breach is about the last night; once the next night has begun it is
     * history, and stays so. The next night begins when the business interval that the window ran into ends. (Asking whether {@code now} lies in a later
     * night than the window's answered "no" on every business day after it, so when the following nights had no full
     * or differential backup, the old breach came back each morning until a new window appeared.)
     */
    static Instant nextNight(NightlyWindow last, BusinessCalendar cal) {
        return cal.businessIntervalAtOrAfter(last.businessStart()).end();
    }

    /**
     * The index of the last window of {@code windows} that finished by {@code now} (its business start came), -1 when none
     * did: found from the end, as the latest nights are, without a list of every finished one each minute.
     */
    static int lastFinished(List<NightlyWindow> windows, Instant now) {
        for (int k = windows.size() - 1; k >= 0; k--) {
            if (!windows.get(k).businessStart().isAfter(now)) {
                return k;
            }
        }
        return -1;
    }

    private static List<NightlyWindow> finished(List<NightlyWindow> windows, Instant now) {
        return windows.stream().filter(w -> !w.businessStart().isAfter(now)).toList();
    }

    private static RunningBackup stillRunningInBusinessHours(InstanceAnalysis ia, Instant now) {
        if (ia.instance().runningBackups().isEmpty()) {
            // most instances most minutes: no business calendar to ask
            return null;
        }
        Instant at = ia.instance().collectedAt() == null ? now : ia.instance().collectedAt();
        if (!ia.calendar().isBusinessTime(at)) {
            return null;
        }
        for (RunningBackup r : ia.instance().runningBackups()) {
            if (r.command() != null && r.command().toUpperCase(Locale.ROOT).startsWith("BACKUP DATABASE")
                    && r.startedAt() != null && ia.calendar().nightContaining(r.startedAt()).isPresent()) {
                return r;
            }
        }
        return null;
    }

    /** backup-window-spill-forecast: a running backup predicted to end the window after business starts, while it has not yet. */
    static List<Alert> spill(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.SpillForecast cfg = rules.backupWindowSpillForecast();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            BusinessCalendar cal = ia.calendar();
            for (SpillForecast f : ia.spills()) {
                if (!f.spills() || f.leadTimeSeconds() <= 0 || f.elapsedSeconds() < cfg.minElapsedMinutes() * 60L) {
                    continue;
                }
                List<Fact> facts = new ArrayList<>(List.of(
                        new Fact("Running", f.database() + ", " + Fmt.one(f.percentComplete()) + " % after "
                                + Fmt.minutes(f.elapsedSeconds() / 60.0) + " (started " + Fmt.when(f.startedAt(), cal.zone()) + ")"),
                        new Fact("Predicted finish", Fmt.when(f.predictedFinish(), cal.zone()))));
                if (f.tailSeconds() > 0) {
                    facts.add(new Fact("Rest of the job", Fmt.minutes(f.tailSeconds() / 60.0) + " after it, as on the latest night"));
                }
                facts.add(new Fact("Predicted window end", Fmt.when(f.predictedWindowEnd(), cal.zone())));
                facts.add(new Fact("Business start", Fmt.when(f.businessStart(), cal.zone()) + " (calendar " + cal.name() + ")"));
                facts.add(new Fact("Time left to act", Fmt.minutes(f.leadTimeSeconds() / 60.0)));
                out.add(new Alert("backup-window-spill-forecast", cfg.severity(), ia.host().host(), ia.instance().name(),
                        f.database(), null,
                        "Backup window predicted to end " + Fmt.minutes(-f.marginSeconds() / 60.0) + " into business hours on "
                                + f.morning(),
                        SPILL_WHY, facts, List.of()));
            }
        }
        return out;
    }

    /**
     * backup-window-creep: the margin trend crosses the safety margin within the horizon. It remembers between
     * evaluations (one evaluator's, which are serialised) each creeping trend's alert, by instance and kind of night, and
     * hands it out again while all it is made of is the same: the trend's numbers and drivers, the instance's windows,
     * jobs, calendar and names, the rules, and the remedies (worked out each time: they read the fleet's compression).
     */
    static final class Creep implements Rule {

        /** What one alert was made of. */
        private record Made(CreepTrend trend, List<NightlyWindow> windows, JobActivity jobs, BusinessCalendar calendar,
                            RulesConfig rules, String host, String instance, List<Fact> remedies, Alert alert) {

            boolean madeOf(CreepTrend t, InstanceAnalysis ia, RulesConfig rules, List<Fact> remedies) {
                return sameTrend(trend, t) && windows == ia.windows() && jobs == ia.instance().jobs()
                        && calendar == ia.calendar() && this.rules == rules && host.equals(ia.host().host())
                        && instance.equals(ia.instance().name()) && this.remedies.equals(remedies);
            }
        }

        private static final int KINDS = NightKind.values().length;

        /** The last evaluation's alerts, by instance ({@code host/instance}) and kind of night. */
        private Map<String, Made[]> made = new HashMap<>();

        @Override
        public List<Alert> evaluate(FleetAnalysis fleet, RulesConfig rules) {
            RulesConfig.Creep cfg = rules.backupWindowCreep();
            Map<String, Made[]> next = new HashMap<>();
            List<Alert> out = new ArrayList<>();
            for (InstanceAnalysis ia : fleet.instances()) {
                Made[] before = null;
                Made[] kept = null;
                for (CreepTrend t : ia.creep().values()) {
                    if (!creeping(t, cfg)) {
                        continue;
                    }
                    if (kept == null) {
                        before = made.get(ia.scope());
                        kept = new Made[KINDS];
                    }
                    List<Fact> remedies = CompressionRules.remedies(fleet, ia, t, rules);
                    Made m = before == null ? null : before[t.kind().ordinal()];
                    if (m == null || !m.madeOf(t, ia, rules, remedies)) {
                        m = new Made(t, ia.windows(), ia.instance().jobs(), ia.calendar(), rules, ia.host().host(),
                                ia.instance().name(), remedies, creep(ia, t, rules, remedies));
                    }
                    kept[t.kind().ordinal()] = m;
                    out.add(m.alert());
                }
                if (kept != null) {
                    next.put(ia.scope(), kept);
                }
            }
            made = next;
            return out;
        }
    }

    /**
     * Whether two trends say the same: the same numbers, nights and drivers (the nights and drivers of a kept fit are the
     * same objects from one minute to the next, and compare by identity first).
     */
    static boolean sameTrend(CreepTrend a, CreepTrend b) {
        return a.kind() == b.kind() && a.scope().equals(b.scope())
                && Double.compare(a.slopeMinutesPerDay(), b.slopeMinutesPerDay()) == 0
                && Double.compare(a.projectedMarginMinutes(), b.projectedMarginMinutes()) == 0
                && Double.compare(a.safetyMarginMinutes(), b.safetyMarginMinutes()) == 0
                && Objects.equals(a.forecastDate(), b.forecastDate()) && Objects.equals(a.daysUntilForecast(), b.daysUntilForecast())
                && (a.nights() == b.nights() || a.nights().equals(b.nights()))
                && (a.drivers() == b.drivers() || a.drivers().equals(b.drivers()));
    }

    /** The backup-window-creep alert of one creeping trend. */
    private static Alert creep(InstanceAnalysis ia, CreepTrend t, RulesConfig rules, List<Fact> remedies) {
        RulesConfig.Creep cfg = rules.backupWindowCreep();
        String kind = t.kind().name().toLowerCase(Locale.ROOT);
        List<Fact> facts = new ArrayList<>(List.of(
                new Fact("Trend", Fmt.two(t.slopeMinutesPerDay()) + " min/day over the last " + t.nights().size()
                        + " " + kind + " nights (Theil–Sen)"),
                new Fact("Margin now", Fmt.minutes(t.projectedMarginMinutes()) + " (trend), safety margin "
                        + Fmt.minutes(t.safetyMarginMinutes()) + " (calendar " + ia.calendar().name() + ")"),
                new Fact("Forecast", "under the safety margin on the night before " + t.forecastDate()
                        + " (in " + t.daysUntilForecast() + " days)")));
        if (!t.drivers().isEmpty()) {
            facts.add(new Fact("Driven by", t.drivers().stream().map(WindowRules::driver).collect(Collectors.joining("; "))));
        }
        List<NightlyWindow> fitted = fitted(ia, t);
        String overlaps = overlaps(ia, fitted, kind, cfg.minJobOverlapMinutes());
        if (overlaps != null) {
            facts.add(new Fact("Jobs overlapping more", overlaps));
        }
        Fact lateOrLong = lateOrLong(ia, fitted, rules.backupWindowBreach().lateStartMinutes());
        if (lateOrLong != null) {
            facts.add(lateOrLong);
        }
        facts.addAll(remedies);
        List<Fact> series = t.nights().stream()
                .skip(Math.max(0, t.nights().size() - 14))
                .map(n -> new Fact(n.morning().toString(), Fmt.minutes(n.marginMinutes()))).toList();
        return new Alert("backup-window-creep", cfg.severity(), ia.host().host(), ia.instance().name(), null, kind,
                "Backup window margin shrinks " + Fmt.two(-t.slopeMinutesPerDay()) + " min/day; under "
                        + Fmt.minutes(t.safetyMarginMinutes()) + " by " + t.forecastDate(),
                CREEP_WHY, facts, series, t.forecastDate());
    }

    /** The finished windows of the creep fit's nights, oldest first. */
    private static List<NightlyWindow> fitted(InstanceAnalysis ia, CreepTrend t) {
        java.util.Set<java.time.LocalDate> mornings = new java.util.HashSet<>();
        t.nights().forEach(n -> mornings.add(n.morning()));
        return ia.windows().stream().filter(w -> w.kind() == t.kind() && mornings.contains(w.morning())).toList();
    }

    /**
     * The jobs other than the backup jobs that overlap the fitted nights' windows more than they used to: up to three,
     * fastest-growing first, e.g. "IndexOptimize now overlaps the full window by 48 min (was 0 min on 2026-11-17)";
     * null when none does.
     */
    static String overlaps(InstanceAnalysis ia, List<NightlyWindow> fitted, String kind, int minMinutes) {
        var jobs = ia.instance().jobs();
        if (fitted.size() < 2 || jobs.runs().isEmpty()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (JobOverlaps.JobOverlap o : JobOverlaps.trend(fitted, jobs.jobs(), jobs.runs())) {
            if (out.size() == 3) {
                break;
            }
            if (o.slopeMinutesPerDay() <= 0 || o.latestMinutes() < minMinutes || o.latestMinutes() <= o.firstMinutes()) {
                continue;
            }
            out.add(o.jobName() + " now overlaps the " + kind + " window by " + Fmt.minutes(o.latestMinutes()) + " (was "
                    + Fmt.minutes(o.firstMinutes()) + " on " + o.mornings().get(0) + ", +" + Fmt.two(o.slopeMinutesPerDay())
                    + " min/day)");
        }
        return out.isEmpty() ? null : String.join("; ", out);
    }

    /**
     * Over the fitted nights with a planned start (the backup job's schedule), whether the window starts later or runs
     * longer: the Theil–Sen slopes of its start's delay and of its length; null without schedules.
     */
    static Fact lateOrLong(InstanceAnalysis ia, List<NightlyWindow> fitted, int lateStartMinutes) {
        List<double[]> points = new ArrayList<>();
        JobSchedules.PlannedStart latest = null;
        NightlyWindow latestWindow = null;
        for (NightlyWindow w : fitted) {
            var p = JobSchedules.plannedStart(ia.instance().jobs().jobs(), w.businessEnd(), w.businessStart(), ia.calendar().zone());
            if (p.isPresent()) {
                points.add(new double[] {w.morning().toEpochDay(), JobSchedules.lateMinutes(p.get().at(), w.firstStart()),
                    w.durationSeconds() / 60.0});
                latest = p.get();
                latestWindow = w;
            }
        }
        if (points.size() < 2) {
            return null;
        }
        double[] x = points.stream().mapToDouble(p -> p[0]).toArray();
        double late = TheilSen.fit(x, points.stream().mapToDouble(p -> p[1]).toArray()).slope();
        double longer = TheilSen.fit(x, points.stream().mapToDouble(p -> p[2]).toArray()).slope();
        double lateNow = JobSchedules.lateMinutes(latest.at(), latestWindow.firstStart());
        String verdict = late > longer ? "it starts later and later" : "it runs longer and longer";
        return new Fact("Start or length", "planned start " + Fmt.when(latest.at(), ia.calendar().zone()) + " (" + latest.jobName()
                + "); the latest window began " + (lateNow > lateStartMinutes ? Fmt.minutes(lateNow) + " late"
                        : "on time") + "; over these nights the start moves " + Fmt.two(late) + " min/day and the length "
                + Fmt.two(longer) + " min/day: " + verdict);
    }

    /**
     * The planned window of a night: when the backup job was scheduled to start, when it did, and whether the window
     * started late (and because the job did) or ran long; null when the instance reported no SQL Server Agent jobs.
     */
    static Fact plannedFact(InstanceAnalysis ia, NightlyWindow w, int lateStartMinutes) {
        var jobs = ia.instance().jobs();
        var zone = ia.calendar().zone();
        var planned = JobSchedules.plannedStart(jobs.jobs(), w.businessEnd(), w.businessStart(), zone);
        if (jobs.jobs().isEmpty()) {
            return null;
        }
        if (planned.isEmpty()) {
            return new Fact("Planned start", "no backup job's schedule plans a start in this night");
        }
        JobSchedules.PlannedStart p = planned.get();
        double late = JobSchedules.lateMinutes(p.at(), w.firstStart());
        String head = Fmt.when(p.at(), zone) + " (" + p.jobName() + ")";
        if (late <= lateStartMinutes) {
            return new Fact("Planned start", head + "; the window began on time and ran long: "
                    + Fmt.minutes(w.durationSeconds() / 60.0) + " from its first start to its last finish");
        }
        Instant jobStart = null;
        for (var r : jobs.runs()) {
            if (JobRules.key(r.jobId()).equals(JobRules.key(p.jobId())) && !r.startedAt().isBefore(w.businessEnd())
                    && r.startedAt().isBefore(w.businessStart()) && (jobStart == null || r.startedAt().isBefore(jobStart))) {
                jobStart = r.startedAt();
            }
        }
        String cause = jobStart == null ? "no run of the job is in its history for this night"
                : JobSchedules.lateMinutes(p.at(), jobStart) > lateStartMinutes
                        ? "the job itself started late, at " + Fmt.when(jobStart, zone)
                        : "the job started on time, its first backup " + Fmt.minutes(JobSchedules.lateMinutes(jobStart, w.firstStart()))
                                + " after it";
        return new Fact("Planned start", head + "; the window began " + Fmt.minutes(late) + " late: " + cause);
    }

    /** The margin shrinks faster than {@code minSlopeMinutesPerDay} and crosses the safety margin within the horizon. */
    static boolean creeping(CreepTrend t, RulesConfig.Creep cfg) {
        return t.forecastDate() != null && t.slopeMinutesPerDay() <= -cfg.minSlopeMinutesPerDay()
                && t.daysUntilForecast() <= cfg.horizonDays();
    }

    private static String driver(DatabaseDriver d) {
        return d.database() + " +" + Fmt.two(d.durationSlopeMinutesPerDay()) + " min/day (now "
                + Fmt.minutes(d.latestDurationMinutes()) + ", " + Fmt.bytes(d.latestSizeBytes()) + ", size "
                + (d.sizeGrowthPercentPerWeek() >= 0 ? "+" : "") + Fmt.two(d.sizeGrowthPercentPerWeek()) + " %/week)";
    }

    private static List<Fact> margins(List<NightlyWindow> windows, int n) {
        return windows.stream().skip(Math.max(0, windows.size() - n))
                .map(w -> new Fact(w.morning().toString(), Fmt.minutes(w.marginMinutes()))).toList();
    }

    static String typeName(String type) {
        return switch (type) {
            case "D" -> "full";
            case "I" -> "differential";
            case "L" -> "log";
            case "F" -> "file";
            case "G" -> "differential file";
            case "P" -> "partial";
            case "Q" -> "differential partial";
            default -> type;
        };
    }
}
