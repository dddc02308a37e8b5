package io.qatwatch.collector.alert.rule;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.Alert.Fact;
import io.qatwatch.collector.analysis.AnalysisConfig;
import io.qatwatch.collector.analysis.FleetAnalysis;
import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.analysis.PackedDigest;
import io.qatwatch.collector.window.TheilSen;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** backup-url-size-ceiling: a database's full backups to URL growing toward what their stripes can hold. */
final class UrlCeilingRules {

    static final String WHY = "Backup to URL has a hard size limit per URL: S3-compatible storage takes at most 10,000 "
            + "parts per file, each MAXTRANSFERSIZE (10 MB by default), so about 100 GB per URL; an Azure block blob at "
            + "most 50,000 blocks. A backup larger than its URLs can hold fails at the end of its run, and the fix (more "
            + "URLs, a larger MAXTRANSFERSIZE) must be in the job before that night.";

    private static final double DAY_SECONDS = 86_400.0;

    private UrlCeilingRules() {
    }

    /** A fitted growth toward the ceiling. */
    record Forecast(String database, int families, long bytesPerUrl, long capacityBytes, long latestBytes,
                    Instant latestFinish, double bytesPerDay, Instant crossing, int backups) {
    }

    /**
     * The fulls to URL the trend reads, per database: the newest {@code baselineFulls} (no snapshot, finished in the
     * lookback period), as many as {@link io.qatwatch.collector.analysis.BackupDigest} keeps, so the alert stage's
     * digest and a fresh read of the store give the same answer.
     */
    static Map<String, List<BackupRecord>> urlFulls(List<BackupRecord> backups, AnalysisConfig config, Instant now) {
        Instant from = now.minus(Duration.ofDays(config.windows().lookbackDays()));
        Map<String, List<BackupRecord>> groups = new LinkedHashMap<>();
        for (BackupRecord b : PackedDigest.only(backups, PackedDigest.URL_FULL)) {
            if (!"D".equals(b.type()) || b.sizeIsEstimate() || !"URL".equalsIgnoreCase(b.target())
                    || b.startedAt().isAfter(now) || !b.finishedAt().isAfter(from)) {
                continue;
            }
            String key = b.databaseName().toLowerCase(Locale.ROOT) + "|" + b.databaseGuid();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(b);
        }
        Map<String, List<BackupRecord>> out = new LinkedHashMap<>();
        groups.forEach((k, runs) -> {
            List<BackupRecord> sorted = new ArrayList<>(runs);
            sorted.sort(Comparator.comparing(BackupRecord::finishedAt).thenComparingLong(BackupRecord::backupSetId));
            if (sorted.size() > config.baselineFulls()) {
                Instant cut = sorted.get(sorted.size() - config.baselineFulls()).finishedAt();
                sorted.removeIf(b -> b.finishedAt().isBefore(cut));
            }
            out.put(k, sorted);
        });
        return out;
    }

    /**
     * Fits the bytes written (compressed size, else the backup size) against time and finds when the line reaches the
     * newest backup's URLs × {@code bytesPerUrl}; null when the newest backup's URLs are unknown, there are fewer than
     * {@code minBackups}, or the size does not grow.
     */
    static Forecast forecast(List<BackupRecord> fulls, long bytesPerUrl, int minBackups) {
        if (fulls.size() < minBackups) {
            return null;
        }
        BackupRecord latest = fulls.get(fulls.size() - 1);
        if (latest.mediaFamilyCount() == null || latest.mediaFamilyCount() < 1) {
            return null;
        }
        Instant origin = fulls.get(0).finishedAt();
        double[] x = new double[fulls.size()];
        double[] y = new double[fulls.size()];
        for (int i = 0; i < fulls.size(); i++) {
            x[i] = Duration.between(origin, fulls.get(i).finishedAt()).getSeconds() / DAY_SECONDS;
            y[i] = written(fulls.get(i));
        }
        if (x[x.length - 1] == x[0]) {
            return null;
        }
        TheilSen line = TheilSen.fit(x, y);
        long capacity = latest.mediaFamilyCount() * bytesPerUrl;
        if (line.slope() <= 0) {
            return null;
        }
        double days = (capacity - line.intercept()) / line.slope();
        Instant crossing = origin.plusSeconds(Math.round(days * DAY_SECONDS));
        return new Forecast(latest.databaseName(), latest.mediaFamilyCount(), bytesPerUrl, capacity, written(latest),
                latest.finishedAt(), line.slope(), crossing, fulls.size());
    }

    private static long written(BackupRecord b) {
        return b.compressedSizeBytes() != null ? b.compressedSizeBytes() : b.backupSizeBytes();
    }

    static List<Alert> sizeCeiling(FleetAnalysis fleet, RulesConfig rules) {
        RulesConfig.UrlSizeCeiling cfg = rules.backupUrlSizeCeiling();
        List<Alert> out = new ArrayList<>();
        for (InstanceAnalysis ia : fleet.instances()) {
            ZoneId zone = ia.calendar().zone();
            LocalDate today = fleet.now().atZone(zone).toLocalDate();
            for (List<BackupRecord> fulls : urlFulls(ia.instance().backups(), fleet.config(), fleet.now()).values()) {
                Forecast f = forecast(fulls, cfg.bytesPerUrl(), cfg.minBackups());
                if (f == null) {
                    continue;
                }
                LocalDate date = f.crossing().atZone(zone).toLocalDate();
                long days = java.time.temporal.ChronoUnit.DAYS.between(today, date);
                if (days > cfg.horizonDays()) {
                    continue;
                }
                String limit = "s3".equals(cfg.storage())
                        ? String.format(Locale.ROOT, "%,d parts x MAXTRANSFERSIZE %,d bytes, S3-compatible",
                                cfg.s3PartsPerUrl(), cfg.s3MaxTransferSizeBytes())
                        : String.format(Locale.ROOT, "%,d blocks x %,d bytes, Azure block blob", cfg.azureBlocksPerBlob(),
                                cfg.azureBlockSizeBytes());
                List<Fact> facts = List.of(
                        new Fact("Latest full", Fmt.bytes(f.latestBytes()) + " written to " + f.families() + " URL(s), "
                                + Fmt.bytes(f.latestBytes() / (double) f.families()) + " per URL, finished "
                                + Fmt.when(f.latestFinish(), zone)),
                        new Fact("Ceiling", Fmt.bytes(f.capacityBytes()) + " = " + f.families() + " URL(s) x "
                                + Fmt.bytes(f.bytesPerUrl()) + " (" + limit + ")"),
                        new Fact("Growth", Fmt.bytes(f.bytesPerDay()) + "/day over the last " + f.backups()
                                + " fulls to URL (Theil–Sen)"),
                        new Fact("Forecast", "outgrows its URLs around " + date + (days <= 0 ? " (now)" : " (in " + days + " days)")),
                        new Fact("Fix", "add URLs to the job (BACKUP ... TO URL = '...', URL = '...', up to 64), or raise "
                                + "MAXTRANSFERSIZE (S3: up to 20 MB)"));
                out.add(new Alert("backup-url-size-ceiling", cfg.severity(), ia.host().host(), ia.instance().name(),
                        f.database(), null, "Full backup of " + f.database() + " outgrows its " + f.families()
                                + " URL(s) around " + date + ": " + Fmt.bytes(f.latestBytes()) + " of "
                                + Fmt.bytes(f.capacityBytes()), WHY, facts, List.of(), date));
            }
        }
        return out;
    }
}
