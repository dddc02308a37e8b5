package io.qatwatch.collector.alert.rule;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How numbers and times read in alerts. */
final class Fmt {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("EEE yyyy-MM-dd HH:mm zzz", Locale.ENGLISH);

    private Fmt() {
    }

    /** {@code 1 h 05 min}, {@code -12 min}. */
    static String minutes(double minutes) {
        long m = Math.round(minutes);
        String sign = m < 0 ? "-" : "";
        m = Math.abs(m);
        return m >= 60 ? String.format(Locale.ROOT, "%s%d h %02d min", sign, m / 60, m % 60) : sign + m + " min";
    }

    /** Decimal bytes with a unit: {@code 2.00 TB}, {@code 512.0 GB}. */
    static String bytes(double b) {
        String[] units = {"B", "KB", "MB", "GB", "TB", "PB"};
        int u = 0;
        while (Math.abs(b) >= 1000 && u < units.length - 1) {
            b /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, u >= 3 ? "%.2f %s" : "%.0f %s", b, units[u]);
    }

    /** A local time in the calendar's zone: {@code Mon 2026-12-14 07:00 CET}. */
    static String when(Instant t, ZoneId zone) {
        return WHEN.format(t.atZone(zone));
    }

    /** One decimal. */
    static String one(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Two decimals. */
    static String two(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
