package io.qatwatch.collector.window;

import java.util.Arrays;

/**
 * The Theil–Sen line: slope = median of all pairwise slopes, intercept = median of y − slope·x. One bad
 * night (a blocked backup, a rerun) moves it far less than it would move least squares.
 */
public record TheilSen(double slope, double intercept) {

    /** Fits x/y pairs; needs two distinct x values. */
    public static TheilSen fit(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("need at least two points, got " + x.length);
        }
        double[] slopes = new double[x.length * (x.length - 1) / 2];
        int n = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                if (x[j] != x[i]) {
                    slopes[n++] = (y[j] - y[i]) / (x[j] - x[i]);
                }
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("all points share one x value");
        }
        double slope = medianInPlace(Arrays.copyOf(slopes, n));
        double[] residuals = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            residuals[i] = y[i] - slope * x[i];
        }
        return new TheilSen(slope, medianInPlace(residuals));
    }

    /** The line's value at {@code x}. */
    public double at(double x) {
        return intercept + slope * x;
    }

    /** The median; averages the middle two of an even count. */
    public static double median(double[] values) {
        return medianInPlace(values.clone());
    }

    /** The median of an array the caller gives away: it is sorted in place. */
    private static double medianInPlace(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
}
