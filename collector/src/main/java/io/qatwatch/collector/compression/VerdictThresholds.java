package io.qatwatch.collector.compression;

import java.util.List;

/**
 * When a difference between two compression methods counts ({@code alerts.rules.compressionVerdicts});
 * unset values take the defaults documented in docs/alerts.md.
 *
 * @param minBackups          backups each method needs before a verdict (fewer: NOT_ENOUGH_DATA)
 * @param minSpeedGainPercent MB/s gain that makes a method FASTER
 * @param maxRatioLossPercent how much larger the compressed backup may grow for a speed gain still to count
 * @param minSizeGainPercent  compressed-size reduction that makes a method SMALLER
 * @param maxSlowdownPercent  MB/s loss beyond which a method is SLOWER (and a size gain no longer counts)
 * @param minDurationSeconds  backups shorter than this are not compared: their time is mostly fixed cost
 * @param minCpuGainPercent   CPU-seconds-per-GB reduction that makes a method CHEAPER (issue 30)
 * @param maxCpuLossPercent   CPU-seconds-per-GB increase beyond which a method is COSTLIER
 */
public record VerdictThresholds(Integer minBackups, Double minSpeedGainPercent, Double maxRatioLossPercent,
                                Double minSizeGainPercent, Double maxSlowdownPercent, Integer minDurationSeconds,
                                Double minCpuGainPercent, Double maxCpuLossPercent) {

    public static final VerdictThresholds DEFAULTS = new VerdictThresholds(null, null, null, null, null, null, null, null);

    /** As before issue 30: CPU thresholds at their defaults. */
    public VerdictThresholds(Integer minBackups, Double minSpeedGainPercent, Double maxRatioLossPercent,
                             Double minSizeGainPercent, Double maxSlowdownPercent, Integer minDurationSeconds) {
        this(minBackups, minSpeedGainPercent, maxRatioLossPercent, minSizeGainPercent, maxSlowdownPercent, minDurationSeconds,
                null, null);
    }

    public VerdictThresholds {
        minBackups = minBackups == null ? 3 : minBackups;
        minSpeedGainPercent = minSpeedGainPercent == null ? 25.0 : minSpeedGainPercent;
        maxRatioLossPercent = maxRatioLossPercent == null ? 10.0 : maxRatioLossPercent;
        minSizeGainPercent = minSizeGainPercent == null ? 20.0 : minSizeGainPercent;
        maxSlowdownPercent = maxSlowdownPercent == null ? 10.0 : maxSlowdownPercent;
        minDurationSeconds = minDurationSeconds == null ? 60 : minDurationSeconds;
        minCpuGainPercent = minCpuGainPercent == null ? 25.0 : minCpuGainPercent;
        maxCpuLossPercent = maxCpuLossPercent == null ? 25.0 : maxCpuLossPercent;
    }

    /** Adds a problem per bad value, each naming its key under {@code key}. */
    public void validate(String key, List<String> problems) {
        if (minBackups < 2) {
            problems.add(key + ".minBackups: must be at least 2 (a median of one backup is an anecdote), got " + minBackups);
        }
        percent(problems, key + ".minSpeedGainPercent", minSpeedGainPercent, false);
        percent(problems, key + ".maxRatioLossPercent", maxRatioLossPercent, true);
        percent(problems, key + ".minSizeGainPercent", minSizeGainPercent, false);
        percent(problems, key + ".maxSlowdownPercent", maxSlowdownPercent, true);
        percent(problems, key + ".minCpuGainPercent", minCpuGainPercent, false);
        percent(problems, key + ".maxCpuLossPercent", maxCpuLossPercent, true);
        if (minCpuGainPercent >= 100) {
            problems.add(key + ".minCpuGainPercent: must be under 100 (a backup cannot cost no CPU), got " + minCpuGainPercent);
        }
        if (minSizeGainPercent >= 100) {
            problems.add(key + ".minSizeGainPercent: must be under 100 (a backup cannot shrink by all of it), got " + minSizeGainPercent);
        }
        if (minDurationSeconds < 1) {
            problems.add(key + ".minDurationSeconds: must be at least 1, got " + minDurationSeconds);
        }
    }

    private static void percent(List<String> problems, String key, double v, boolean zeroAllowed) {
        if (!Double.isFinite(v) || v < 0 || (!zeroAllowed && v == 0)) {
            problems.add(key + ": must be " + (zeroAllowed ? "0 or more" : "more than 0") + " (a percentage), got " + v);
        }
    }
}
