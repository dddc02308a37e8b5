package io.qatwatch.collector.compression;

/** What one compression method's backups showed against the baseline's, to the same target, like with like. */
public enum Verdict {
    /**
     * FASTER (or FASTER_AND_SMALLER), and CPU seconds per GB down by at least {@code minCpuGainPercent}: what QAT's
     * offload is bought for (issue 30).
     */
    FASTER_AND_CHEAPER("faster and cheaper in CPU"),
    /** Faster by at least {@code minSpeedGainPercent} and smaller by at least {@code minSizeGainPercent}. */
    FASTER_AND_SMALLER("faster and smaller"),
    /** MB/s up by at least {@code minSpeedGainPercent}, compressed size up by no more than {@code maxRatioLossPercent}. */
    FASTER("faster"),
    /** Compressed size down by at least {@code minSizeGainPercent}, MB/s down by no more than {@code maxSlowdownPercent}. */
    SMALLER("smaller"),
    /**
     * No speed or size gain, but CPU seconds per GB down by at least {@code minCpuGainPercent} while MB/s drops by no
     * more than {@code maxSlowdownPercent} and the backup grows by no more than {@code maxRatioLossPercent}.
     */
    CHEAPER("as fast, cheaper in CPU"),
    /** FASTER (or FASTER_AND_SMALLER), but CPU seconds per GB up by more than {@code maxCpuLossPercent}: a trade-off. */
    FASTER_BUT_COSTLIER("faster, but costlier in CPU"),
    /** No speed or size gain, and CPU seconds per GB up by more than {@code maxCpuLossPercent}. */
    COSTLIER("no gain, costlier in CPU"),
    /** Neither a gain nor a slowdown beyond the thresholds, or a difference inside either side's spread. */
    NO_GAIN("no gain"),
    /** MB/s down by more than {@code maxSlowdownPercent}, with no size gain that counts. */
    SLOWER("slower"),
    /** Fewer than {@code minBackups} backups of this method or of the baseline. */
    NOT_ENOUGH_DATA("too few backups"),
    /** Only one method was used: nothing to compare. */
    SINGLE_ALGORITHM("one algorithm only");

    private final String words;

    Verdict(String words) {
        this.words = words;
    }

    /** How a sentence says it: "faster", "no gain". */
    public String words() {
        return words;
    }

    /** A measured gain a DBA could act on. */
    public boolean isFaster() {
        return this == FASTER || this == FASTER_AND_SMALLER || this == FASTER_AND_CHEAPER || this == FASTER_BUT_COSTLIER;
    }

    /** A measured CPU saving (issue 30): worth keeping on a busy host even at the same speed. */
    public boolean isCheaper() {
        return this == FASTER_AND_CHEAPER || this == CHEAPER;
    }

    /** The verdict named {@code s}, case-insensitively; null when there is none. */
    public static Verdict parse(String s) {
        for (Verdict v : values()) {
            if (v.name().equalsIgnoreCase(s)) {
                return v;
            }
        }
        return null;
    }
}
