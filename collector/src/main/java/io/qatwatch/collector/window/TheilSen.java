package io.qatwatch.collector.window;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
        List<Double> slopes = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                if (x[j] != x[i]) {
                    slopes.add((y[j] - y[i]) / (x[j] - x[i]));
                }
            }
        }
        if (slopes.isEmpty()) {
            throw new IllegalArgumentException("all points share one x value");
        }
        double slope = median(slopes.stream().mapToDouble(Double::doubleValue).toArray());
        double[] residuals = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            residuals[i] = y[i] - slope * x[i];
        }
        return new TheilSen(slope, median(residuals));
    }

    /** The line's value at {@code x}. */
    public double at(double x) {
        return intercept + slope * x;
    }

    /** The median; averages the middle two of an even count. */
    public static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
}
