package io.qatwatch.collector.compression;

/**
 * One method's backups judged against the baseline's of the same series.
 *
 * @param speedGainPercent MB/s (of {@code backup_size}) gained over the baseline's median; negative when slower
 * @param sizeGainPercent  how much smaller the compressed backup is for the same data (from the median ratios);
 *                         negative when larger
 */
public record Judgement(Verdict verdict, double speedGainPercent, double sizeGainPercent) {

    /**
     * The verdict of {@code candidate} against {@code baseline}. A speed gain counts when MB/s improves by at
     * least {@code minSpeedGainPercent} while the compressed size grows by no more than {@code maxRatioLossPercent};
     * a size gain when the compressed size shrinks by at least {@code minSizeGainPercent} without a slowdown beyond
     * {@code maxSlowdownPercent}. SLOWER: MB/s drops by more than {@code maxSlowdownPercent} with no size gain that
     * counts. A difference whose median lies inside the other side's interquartile range is noise: NO_GAIN.
     */
    public static Judgement of(AlgorithmStats baseline, AlgorithmStats candidate, VerdictThresholds t) {
        double speed = (candidate.mbps().median() / baseline.mbps().median() - 1) * 100;
        double size = (1 - baseline.ratio().median() / candidate.ratio().median()) * 100;
        if (baseline.backups() < t.minBackups() || candidate.backups() < t.minBackups()) {
            return new Judgement(Verdict.NOT_ENOUGH_DATA, speed, size);
        }
        boolean speedClear = !baseline.mbps().contains(candidate.mbps().median())
                && !candidate.mbps().contains(baseline.mbps().median());
        boolean sizeClear = !baseline.ratio().contains(candidate.ratio().median())
                && !candidate.ratio().contains(baseline.ratio().median());
        boolean faster = speedClear && speed >= t.minSpeedGainPercent() && size >= -t.maxRatioLossPercent();
        boolean smaller = sizeClear && size >= t.minSizeGainPercent() && speed >= -t.maxSlowdownPercent();
        Verdict v;
        if (faster && smaller) {
            v = Verdict.FASTER_AND_SMALLER;
        } else if (faster) {
            v = Verdict.FASTER;
        } else if (smaller) {
            v = Verdict.SMALLER;
        } else if (speedClear && speed < -t.maxSlowdownPercent()) {
            v = Verdict.SLOWER;
        } else {
            v = Verdict.NO_GAIN;
        }
        return new Judgement(v, speed, size);
    }

    /**
     * The two gains as people read them everywhere (status page, alerts), with the signs the API gives
     * {@code speedGainPercent} and {@code sizeGainPercent}: "speed gain +12.3 % (faster), size gain -5.4 % (larger)".
     */
    public static String words(double speedGainPercent, double sizeGainPercent) {
        String speed = signed(speedGainPercent);
        String size = signed(sizeGainPercent);
        return "speed gain " + speed + " %" + (speed.equals("0.0") ? "" : speedGainPercent > 0 ? " (faster)" : " (slower)")
                + ", size gain " + size + " %" + (size.equals("0.0") ? "" : sizeGainPercent > 0 ? " (smaller)" : " (larger)");
    }

    /** {@code +2.0}, {@code -25.8}, and {@code 0.0} for anything that rounds to zero (never {@code -0.0}). */
    static String signed(double v) {
        String t = String.format(java.util.Locale.ROOT, "%.1f", v);
        if (t.equals("-0.0") || t.equals("0.0")) {
            return "0.0";
        }
        return t.startsWith("-") ? t : "+" + t;
    }
}
