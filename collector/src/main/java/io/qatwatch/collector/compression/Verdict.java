package io.qatwatch.collector.compression;

/** What one compression method's backups showed against the baseline's, to the same target, like with like. */
public enum Verdict {
    /** Faster by at least {@code minSpeedGainPercent} and smaller by at least {@code minSizeGainPercent}. */
    FASTER_AND_SMALLER("faster and smaller"),
    /** MB/s up by at least {@code minSpeedGainPercent}, compressed size up by no more than {@code maxRatioLossPercent}. */
    FASTER("faster"),
    /** Compressed size down by at least {@code minSizeGainPercent}, MB/s down by no more than {@code maxSlowdownPercent}. */
    SMALLER("smaller"),
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
        return this == FASTER || this == FASTER_AND_SMALLER;
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
