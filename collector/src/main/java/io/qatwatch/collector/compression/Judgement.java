package io.qatwatch.collector.compression;

/**
 * One method's backups judged against the baseline's of the same series.
 *
 * @param speedGainPercent MB/s (of {@code backup_size}) gained over the baseline's median; negative when slower
 * @param sizeGainPercent  how much smaller the compressed backup is for the same data (from the median ratios);
 *                         negative when larger
 * @param cpuGainPercent   how much less CPU per GB read it costs (from the median CPU seconds per GB); negative when
 *                         more; null when either side had fewer than {@code minBackups} backups with CPU observed
 */
public record Judgement(Verdict verdict, double speedGainPercent, double sizeGainPercent, Double cpuGainPercent) {

    /** Without CPU (as before issue 30). */
    public Judgement(Verdict verdict, double speedGainPercent, double sizeGainPercent) {
        this(verdict, speedGainPercent, sizeGainPercent, null);
    }

    /** Whether CPU was observed on both sides often enough to weigh in the verdict. */
    public boolean cpuObserved() {
        return cpuGainPercent != null;
    }

    /**
     * The verdict of {@code candidate} against {@code baseline}. A speed gain counts when MB/s improves by at
     * least {@code minSpeedGainPercent} while the compressed size grows by no more than {@code maxRatioLossPercent};
     * a size gain when the compressed size shrinks by at least {@code minSizeGainPercent} without a slowdown beyond
     * {@code maxSlowdownPercent}. SLOWER: MB/s drops by more than {@code maxSlowdownPercent} with no size gain that
     * counts. A difference whose median lies inside the other side's interquartile range is noise: NO_GAIN.
     * Where both sides had CPU observed on at least {@code minBackups} backups, CPU weighs in (issue 30): a faster method
     * that costs {@code minCpuGainPercent} less CPU per GB is FASTER_AND_CHEAPER, one {@code maxCpuLossPercent} more
     * FASTER_BUT_COSTLIER; a NO_GAIN one CHEAPER or COSTLIER (CHEAPER only within the slowdown and ratio-loss limits).
     * Without CPU the verdict stays on time and size.
     */
    public static Judgement of(AlgorithmStats baseline, AlgorithmStats candidate, VerdictThresholds t) {
        double speed = (candidate.mbps().median() / baseline.mbps().median() - 1) * 100;
        double size = (1 - baseline.ratio().median() / candidate.ratio().median()) * 100;
        Double cpu = baseline.cpuBackups() >= t.minBackups() && candidate.cpuBackups() >= t.minBackups()
                && baseline.cpuSecondsPerGb().median() > 0
                ? (1 - candidate.cpuSecondsPerGb().median() / baseline.cpuSecondsPerGb().median()) * 100 : null;
        if (baseline.backups() < t.minBackups() || candidate.backups() < t.minBackups()) {
            return new Judgement(Verdict.NOT_ENOUGH_DATA, speed, size, cpu);
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
        if (cpu != null) {
            boolean cpuClear = !baseline.cpuSecondsPerGb().contains(candidate.cpuSecondsPerGb().median())
                    && !candidate.cpuSecondsPerGb().contains(baseline.cpuSecondsPerGb().median());
            boolean cheaper = cpuClear && cpu >= t.minCpuGainPercent();
            boolean costlier = cpuClear && cpu < -t.maxCpuLossPercent();
            if (v.isFaster() && cheaper) {
                v = Verdict.FASTER_AND_CHEAPER;
            } else if (v.isFaster() && costlier) {
                v = Verdict.FASTER_BUT_COSTLIER;
            } else if (v == Verdict.NO_GAIN && cheaper && speed >= -t.maxSlowdownPercent() && size >= -t.maxRatioLossPercent()) {
                v = Verdict.CHEAPER;
            } else if (v == Verdict.NO_GAIN && costlier) {
                v = Verdict.COSTLIER;
            }
        }
        return new Judgement(v, speed, size, cpu);
    }

    /**
     * The two gains as people read them everywhere (status page, alerts), with the signs the API gives
     * {@code speedGainPercent} and {@code sizeGainPercent}: "speed gain +12.3 % (faster), size gain -5.4 % (larger)".
     */
    public static String words(double speedGainPercent, double sizeGainPercent) {
        return words(speedGainPercent, sizeGainPercent, null);
    }

    /**
     * As {@link #words(double, double)}, and the CPU gain where it was observed (null: not), with the sign of the API's
     * {@code cpuGainPercent}: "speed gain 0.0 %, size gain -1.2 % (larger), CPU gain +71.0 % (less CPU)". One text for
     * a row's gains in the API ({@code gains}), the status page and chat.
     */
    public static String words(double speedGainPercent, double sizeGainPercent, Double cpuGainPercent) {
        String speed = signed(speedGainPercent);
        String size = signed(sizeGainPercent);
        String words = "speed gain " + speed + " %" + (speed.equals("0.0") ? "" : speedGainPercent > 0 ? " (faster)" : " (slower)")
                + ", size gain " + size + " %" + (size.equals("0.0") ? "" : sizeGainPercent > 0 ? " (smaller)" : " (larger)");
        if (cpuGainPercent == null) {
            return words;
        }
        String cpu = signed(cpuGainPercent);
        return words + ", CPU gain " + cpu + " %" + (cpu.equals("0.0") ? "" : cpuGainPercent > 0 ? " (less CPU)" : " (more CPU)");
    }

    /** All the gains of this judgement as {@link #words(double, double, Double)} says them. */
    public String gainWords() {
        return words(speedGainPercent, sizeGainPercent, cpuGainPercent);
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
