package io.qatwatch.collector.window;

import io.qatwatch.collector.window.CreepTrend.NightMargin;
import java.time.LocalDate;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A creep fit's nights as a list of {@link NightMargin}s that holds their mornings and margins in two arrays: the
 * alert stage keeps each instance's fits (one per night kind, each up to the creep settings' nights) between
 * evaluations, and a record per night took 24 bytes where its margin takes 8 (the mornings are the nights' own).
 * Immutable; equal to, hashed and printed as any list of the same {@code NightMargin}s, which {@link #get} makes when
 * read (by the status pages and the API, not by the minute's rules).
 */
final class NightMargins extends AbstractList<NightMargin> implements RandomAccess {

    private final LocalDate[] mornings;
    private final double[] minutes;

    /** Takes the arrays as they are: the caller hands them over and keeps no reference. */
    NightMargins(LocalDate[] mornings, double[] minutes) {
        if (mornings.length != minutes.length) {
            throw new IllegalArgumentException(mornings.length + " mornings, " + minutes.length + " margins");
        }
        for (LocalDate m : mornings) {
            if (m == null) {
                // as List.copyOf, which the fits' nights were before
                throw new NullPointerException("a night without a morning");
            }
        }
        this.mornings = mornings;
        this.minutes = minutes;
    }

    @Override
    public NightMargin get(int index) {
        return new NightMargin(mornings[index], minutes[index]);
    }

    @Override
    public int size() {
        return mornings.length;
    }
}
