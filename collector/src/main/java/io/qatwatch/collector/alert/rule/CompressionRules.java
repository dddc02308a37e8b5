package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetCompression.Row;
import io.qatwatch.collector.compression.AlgorithmStats;
import io.qatwatch.collector.compression.BackupKind;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.Judgement;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.compression.Verdict;
import io.qatwatch.collector.compression.VerdictThresholds;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.CreepTrend.DatabaseDriver;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.LicenceVerdict;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** qat-no-gain, compression-worth-trying, and the remedy line of backup-window-creep: what the verdicts mean for a DBA. */
final class CompressionRules {

    static final String NO_GAIN_WHY = "This database's backups use QAT_DEFLATE, but measured against the other "
            + "algorithm's backups of the same database to the same kind of target they are no faster and no smaller "
            + "beyond the thresholds, or slower. QAT backups still carry a burden: every host that may restore them "
            + "needs the QAT driver and QAT enabled in SQL Server, or the restore fails with Msg 17441. Without a gain, "
            + "the other algorithm does the same job without that burden.";
    static final String WORTH_TRYING_WHY = "The nightly backup window is creeping toward business hours on a host "
            + "where QAT backup compression is licensed and available (QAT hardware, or an Intel CPU for software mode), "
            + "yet no backup here was ever taken with QAT_DEFLATE, so nobody knows what it would buy. A COPY_ONLY test "
            + "backup changes no backup chain; after a few, qatwatch compares them with the jobs' own backups to the "
            + "same target and says whether switching would save time.";

    private CompressionRules() {
    }

    /** qat-no-gain: the jobs back up with QAT_DEFLATE, and it measured NO_GAIN or SLOWER against the baseline. */
    static List<Alert> qatNoGain(FleetAnalysis fleet, RulesConfig rules) {
        FleetCompression compression = fleet.compression();
        VerdictThresholds t = rules.compressionVerdicts();
        List<Alert> out = new ArrayList<>();
        for (Row row : compression.qatWithoutGainRows()) {
            Comparison c = row.comparison();
            if (c.current() == null || !c.current().isQat()) {
                continue;
            }
            Optional<Comparison.Entry> qat = c.algorithms().stream()
                    .filter(e -> e.stats().method().equals(c.current()) && e.judgement() != null).findFirst();
            if (qat.isEmpty()) {
                continue;
            }
            Judgement j = qat.get().judgement();
            if (j.verdict() != Verdict.NO_GAIN && j.verdict() != Verdict.SLOWER) {
                continue;
            }
            AlgorithmStats mine = qat.get().stats();
            AlgorithmStats base = c.stats(c.baseline()).orElseThrow();
            String kind = c.kind().label();
            String how = j.verdict() == Verdict.SLOWER
                    ? Fmt.one(-j.speedGainPercent()) + " % slower than " + base.method().label()
                    : "no faster or smaller than " + base.method().label();
            List<Fact> facts = new ArrayList<>();
            facts.add(new Fact("Measured", measured(mine) + "; " + measured(base)));
            facts.add(new Fact("Verdict", j.verdict() + " (" + gains(j) + "; " + thresholds(t) + ")"));
            facts.add(new Fact("Restore burden", "QAT_DEFLATE backups " + compression.restoreBurden()));
            facts.add(new Fact("Fix", "unless the gain is measured elsewhere, back up with COMPRESSION (ALGORITHM = "
                    + base.method().algorithm() + ") and keep QAT where it pays"));
            out.add(new Alert("qat-no-gain", rules.qatNoGain().severity(), row.host(), row.instance(), c.database(),
                    subject(c), "QAT_DEFLATE " + kind + " backups of " + c.database() + " " + FleetCompression.target(c.target())
                            + " are " + how, NO_GAIN_WHY, facts, List.of()));
        }
        return out;
    }

    /** What tells two rows of one database apart: kind, target and encryption. */
    private static String subject(Comparison c) {
        return c.kind().label() + " " + c.target() + (c.backupEncrypted() ? " encrypted" : "");
    }

    /** "QAT_DEFLATE (HARDWARE): 8 fulls, median 1 h 23 min, 312.4 MB/s, 38.8 % saved". */
    static String measured(AlgorithmStats s) {
        return s.method().label() + ": " + s.backups() + " backups" + (s.copyOnlyBackups() > 0 ? " (" + s.copyOnlyBackups()
                + " copy-only)" : "") + ", median " + Fmt.minutes(s.seconds().median() / 60) + ", " + Fmt.one(s.mbps().median())
                + " MB/s, " + Fmt.one(s.savedPercent()) + " % saved";
    }

    private static String gains(Judgement j) {
        return Judgement.words(j.speedGainPercent(), j.sizeGainPercent());
    }

    private static String thresholds(VerdictThresholds t) {
        return "a gain counts from " + Fmt.one(t.minSpeedGainPercent()) + " % faster or " + Fmt.one(t.minSizeGainPercent())
                + " % smaller";
    }

    /**
     * compression-worth-trying: an instance whose window creeps (as backup-window-creep judges it), on a host
     * where QAT is licensed and available, that can compress with QAT_DEFLATE (SQL Server 2022+ on Windows, not
     * Express) and never did within the lookback period.
     */
    static List<Alert> worthTrying(FleetAnalysis fleet, RulesConfig rules) {
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            if (ia.creep().values().stream().noneMatch(t -> WindowRules.creeping(t, rules.backupWindowCreep()))) {
                continue;
            }
            LicenceFacts licence = ia.host().licence();
            if (licence == null || (licence.verdict() != LicenceVerdict.INTEL_QAT_HARDWARE
                    && licence.verdict() != LicenceVerdict.INTEL_CPU)) {
                continue;
            }
            Optional<AcceleratorStatus> qat = QatRules.qat(ia);
            if (qat.isEmpty() || "NONE_HARDWARE_OFFLOAD_LINUX_NOT_SUPPORTED".equalsIgnoreCase(qat.get().modeReasonDesc())
                    || ia.instance().server() != null && Integer.valueOf(4).equals(ia.instance().server().engineEdition())) {
                continue;
            }
            // whether the instance ever compressed with QAT: its host's rows only, only when it creeps
            if (triedQat(fleet, ia)) {
                continue;
            }
            for (CreepTrend trend : ia.creep().values()) {
                if (!WindowRules.creeping(trend, rules.backupWindowCreep())) {
                    continue;
                }
                out.add(worthTrying(fleet, ia, trend, licence, qat.get(), rules));
            }
        }
        return out;
    }

    /** Whether one of the instance's comparisons has a QAT method. */
    private static boolean triedQat(FleetAnalysis fleet, InstanceAnalysis ia) {
        for (Row r : fleet.compression().rowsOf(ia.host().host())) {
            if (r.instance().equals(ia.instance().name())) {
                for (Comparison.Entry e : r.comparison().algorithms()) {
                    if (e.stats().method().isQat()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static Alert worthTrying(FleetAnalysis fleet, InstanceAnalysis ia, CreepTrend trend, LicenceFacts licence,
                                     AcceleratorStatus qat, RulesConfig rules) {
        String kind = trend.kind().name().toLowerCase(Locale.ROOT);
        String database = trend.drivers().isEmpty() ? "<database>" : trend.drivers().get(0).database();
        String target = "TO DISK = N'<the job's own target>'";
        Optional<Row> job = fleet.compression().jobRow(ia.host().host(), ia.instance().name(), database, BackupKind.FULL);
        if (job.isPresent() && "URL".equals(job.get().comparison().target())) {
            target = "TO URL = N'<the job's own URL>'";
        }
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("Creep", Fmt.two(trend.slopeMinutesPerDay()) + " min/day over the last " + trend.nights().size()
                + " " + kind + " nights; under the safety margin by " + trend.forecastDate()));
        if (!trend.drivers().isEmpty()) {
            facts.add(new Fact("Driven by", String.join(", ", trend.drivers().stream().map(DatabaseDriver::database).toList())));
        }
        facts.add(new Fact("QAT here", "licence verdict " + licence.verdict() + (licence.qatSoftwareInstalled()
                ? ", QAT software installed" : ", QAT software not installed (QATzip and ISA-L are needed, also in software mode)")
                + "; SQL Server accelerator mode " + QatRules.nz(qat.modeDesc()) + " (" + QatRules.nz(qat.modeReasonDesc()) + ")"));
        String mode = QatModes.modeOf(List.of(qat));
        if (!"HARDWARE".equals(mode) && !"SOFTWARE".equals(mode)) {
            facts.add(new Fact("First", "enable QAT: EXEC sp_configure 'hardware offload enabled', 1; RECONFIGURE; "
                    + "ALTER SERVER CONFIGURATION SET HARDWARE_OFFLOAD = ON (ACCELERATOR = QAT); then restart the instance"));
        }
        facts.add(new Fact("Try", "BACKUP DATABASE [" + database + "] " + target
                + " WITH COPY_ONLY, COMPRESSION (ALGORITHM = QAT_DEFLATE), STATS = 10; at least "
                + rules.compressionVerdicts().minBackups() + " times, at the hour the job runs (a copy-only full is compared "
                + "with the fulls to the same target)"));
        return new Alert("compression-worth-trying", rules.compressionWorthTrying().severity(), ia.host().host(),
                ia.instance().name(), null, kind, "Backup window creeps and QAT_DEFLATE was never tried here: test it with a "
                        + "COPY_ONLY backup", WORTH_TRYING_WHY, facts, List.of());
    }

    /**
     * The remedy lines of one creep trend: for each driving database whose jobs' backups have a measured FASTER
     * alternative to the same target, the minutes switching saves per night and the margin then, and whether it
     * stays above the safety margin for the whole horizon. None without a measured alternative: never invented.
     * Assumes the job backs up its databases one after another, as maintenance jobs do.
     */
    static List<Fact> remedies(FleetAnalysis fleet, InstanceAnalysis ia, CreepTrend trend, RulesConfig rules) {
        BackupKind kind = trend.kind() == NightKind.FULL ? BackupKind.FULL : BackupKind.DIFFERENTIAL;
        VerdictThresholds t = rules.compressionVerdicts();
        List<Fact> out = new ArrayList<>();
        for (DatabaseDriver d : trend.drivers()) {
            Optional<Row> job = fleet.compression().jobRow(ia.host().host(), ia.instance().name(), d.database(), kind);
            if (job.isEmpty()) {
                continue;
            }
            Comparison c = job.get().comparison();
            Optional<AlgorithmStats> now = c.stats(c.current());
            if (now.isEmpty()) {
                continue;
            }
            AlgorithmStats best = null;
            for (Comparison.Entry e : c.algorithms()) {
                AlgorithmStats s = e.stats();
                if (!s.method().equals(c.current()) && Judgement.of(now.get(), s, t).verdict().isFaster()
                        && (best == null || s.mbps().median() > best.mbps().median())) {
                    best = s;
                }
            }
            if (best != null) {
                out.add(new Fact("Remedy", remedy(fleet, ia, trend, d, c, now.get(), best, rules.backupWindowCreep().horizonDays())));
            }
        }
        return out;
    }

    /**
     * "switching SalesDW to QAT_DEFLATE (HARDWARE) saves ~4 h 10 min per full, as measured on 6 copy-only backups
     * (...); margin then 5 h 02 min, above the safety margin of 1 h 00 min for the whole horizon (21 days)".
     */
    private static String remedy(FleetAnalysis fleet, InstanceAnalysis ia, CreepTrend trend, DatabaseDriver d, Comparison c,
                                 AlgorithmStats now, AlgorithmStats alternative, int horizonDays) {
        double saved = savedMinutes(d.latestDurationMinutes(), now, alternative);
        double marginThen = trend.projectedMarginMinutes() + saved;
        double safety = trend.safetyMarginMinutes();
        LocalDate latest = trend.nights().get(trend.nights().size() - 1).morning();
        LocalDate today = fleet.now().atZone(ia.calendar().zone()).toLocalDate();
        long days = ChronoUnit.DAYS.between(latest, today) + horizonDays;
        double atHorizon = marginThen + trend.slopeMinutesPerDay() * days;
        StringBuilder s = new StringBuilder("switching ").append(d.database()).append(" to ").append(alternative.method().label())
                .append(" saves ~").append(Fmt.minutes(saved)).append(" per ").append(c.kind().label()).append(", as measured on ")
                .append(backups(alternative)).append(" (").append(now.method().label()).append(' ').append(Fmt.one(now.mbps().median()))
                .append(" MB/s, ").append(alternative.method().label()).append(' ').append(Fmt.one(alternative.mbps().median()))
                .append(" MB/s, ").append(FleetCompression.target(c.target())).append("); margin then ").append(Fmt.minutes(marginThen));
        if (marginThen < safety) {
            s.append(", still under the safety margin of ").append(Fmt.minutes(safety));
        } else if (atHorizon >= safety) {
            s.append(", above the safety margin of ").append(Fmt.minutes(safety)).append(" for the whole horizon (")
                    .append(horizonDays).append(" days; ").append(Fmt.minutes(atHorizon)).append(" at its end)");
        } else {
            long untilCrossing = (long) Math.ceil((marginThen - safety) / -trend.slopeMinutesPerDay());
            s.append(", under the safety margin of ").append(Fmt.minutes(safety)).append(" again by ")
                    .append(latest.plusDays(untilCrossing)).append(" (within the ").append(horizonDays).append("-day horizon)");
        }
        return s.toString();
    }

    /** A database's backup takes {@code latest} minutes now; at the alternative's median MB/s it would take less. */
    static double savedMinutes(double latestMinutes, AlgorithmStats now, AlgorithmStats alternative) {
        return latestMinutes * (1 - now.mbps().median() / alternative.mbps().median());
    }

    private static String backups(AlgorithmStats s) {
        if (s.copyOnlyBackups() == s.backups()) {
            return s.backups() + " copy-only backups";
        }
        return s.backups() + " backups" + (s.copyOnlyBackups() > 0 ? " (" + s.copyOnlyBackups() + " copy-only)" : "");
    }
}
