package io.qatwatch.collector.web.status;

import static io.qatwatch.collector.web.status.Html.esc;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * One database's backups of one kind over the lookback period as inline SVG: three panels sharing the time axis
 * (duration in minutes, {@code backup_size} in GB, MB/s), each backup a marker whose shape and colour say its
 * compression algorithm, and a dashed line where the algorithm or the target changed. A snapshot backup's size
 * is an estimate: it is drawn for its duration only. Pure: backups in, SVG text out.
 */
final class BackupChart {

    static final int WIDTH = 720;
    private static final int LEFT = 78;
    private static final int RIGHT = 14;
    private static final int TOP = 22;
    private static final int PANEL = 100;
    private static final int GAP = 30;
    private static final int BOTTOM = 28;
    static final int HEIGHT = TOP + 3 * PANEL + 2 * GAP + BOTTOM;
    private static final double GB = 1024.0 * 1024 * 1024;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("EEE d MMM HH:mm", Locale.ENGLISH);

    /** Marker shape and colour per algorithm: colour is never the only sign. */
    enum Marker {
        MS_XPRESS("circle", "#3b5bdb"), QAT_DEFLATE("triangle", "#c2410c"), ZSTD("square", "#2b8a3e"),
        NONE("diamond", "#495057"), OTHER("cross", "#862e9c");

        final String shape;
        final String colour;

        Marker(String shape, String colour) {
            this.shape = shape;
            this.colour = colour;
        }

        static Marker of(String algorithm) {
            return switch (algorithm) {
                case "MS_XPRESS" -> MS_XPRESS;
                case "QAT_DEFLATE" -> QAT_DEFLATE;
                case "ZSTD" -> ZSTD;
                case "none" -> NONE;
                default -> OTHER;
            };
        }

        /** The marker at ({@code x}, {@code y}), radius about 4.5. */
        String at(double x, double y) {
            String fill = " fill=\"" + colour + "\" stroke=\"#fff\" stroke-width=\"0.8\"";
            return switch (this) {
                case MS_XPRESS -> "<circle cx=\"" + f(x) + "\" cy=\"" + f(y) + "\" r=\"4.2\"" + fill;
                case QAT_DEFLATE -> "<path d=\"M" + f(x) + " " + f(y - 5) + "L" + f(x + 5) + " " + f(y + 4) + "L" + f(x - 5) + " "
                        + f(y + 4) + "Z\"" + fill;
                case ZSTD -> "<rect x=\"" + f(x - 4) + "\" y=\"" + f(y - 4) + "\" width=\"8\" height=\"8\"" + fill;
                case NONE -> "<path d=\"M" + f(x) + " " + f(y - 5) + "L" + f(x + 5) + " " + f(y) + "L" + f(x) + " " + f(y + 5) + "L"
                        + f(x - 5) + " " + f(y) + "Z\"" + fill;
                case OTHER -> "<path d=\"M" + f(x - 4) + " " + f(y - 4) + "L" + f(x + 4) + " " + f(y + 4) + "M" + f(x + 4) + " "
                        + f(y - 4) + "L" + f(x - 4) + " " + f(y + 4) + "\" stroke=\"" + colour + "\" stroke-width=\"2.2\" fill=\"none\"";
            };
        }
    }

    /** A change of algorithm or target between two backups that are not copy-only: what the chart annotates. */
    record Change(Instant at, String what) {
    }

    private final List<BackupRecord> backups;
    private final Instant from;
    private final Instant to;
    private final ZoneId zone;

    private BackupChart(List<BackupRecord> backups, Instant from, Instant to, ZoneId zone) {
        this.backups = backups;
        this.from = from;
        this.to = to;
        this.zone = zone;
    }

    /** The algorithm a backup was compressed with: {@code none} when it was not compressed. */
    static String algorithm(BackupRecord b) {
        if (b.compressionAlgorithm() != null && !b.compressionAlgorithm().isBlank()) {
            return b.compressionAlgorithm().trim().toUpperCase(Locale.ROOT);
        }
        // before SQL Server 2022 msdb has no algorithm column: a compressed backup was MS_XPRESS
        return b.compressedSizeBytes() != null && b.compressedSizeBytes() < b.backupSizeBytes() ? "MS_XPRESS" : "none";
    }

    static String target(BackupRecord b) {
        return b.target() == null || b.target().isBlank() ? "UNKNOWN" : b.target().trim().toUpperCase(Locale.ROOT);
    }

    static boolean snapshot(BackupRecord b) {
        return Boolean.TRUE.equals(b.snapshot());
    }

    /** The algorithms in order of first use, for the legend. */
    static Set<String> algorithms(List<BackupRecord> backups) {
        Set<String> out = new LinkedHashSet<>();
        backups.forEach(b -> out.add(algorithm(b)));
        return out;
    }

    /** Where the jobs' backups (copy-only tests aside) changed algorithm or target, oldest first. */
    static List<Change> changes(List<BackupRecord> backups) {
        List<Change> out = new ArrayList<>();
        BackupRecord last = null;
        for (BackupRecord b : backups) {
            if (b.copyOnly()) {
                continue;
            }
            if (last != null) {
                List<String> what = new ArrayList<>();
                if (!algorithm(b).equals(algorithm(last))) {
                    what.add(algorithm(last) + " \u2192 " + algorithm(b));
                }
                if (!target(b).equals(target(last))) {
                    what.add("to " + target(last) + " \u2192 " + target(b));
                }
                if (!what.isEmpty()) {
                    out.add(new Change(b.startedAt(), String.join(", ", what)));
                }
            }
            last = b;
        }
        return out;
    }

    /** The chart of {@code backups} (one kind, oldest first) between {@code from} and {@code to}. */
    static String svg(List<BackupRecord> backups, Instant from, Instant to, ZoneId zone, String title) {
        return new BackupChart(backups, from, to, zone).draw(title);
    }

    private String draw(String title) {
        StringBuilder s = new StringBuilder(8192);
        s.append("<svg class=\"backups\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"").append(esc(title)).append("\"><title>").append(esc(title)).append("</title>");
        panel(s, 0, "Duration (min)", b -> seconds(b) / 60.0, false);
        panel(s, 1, "Size (GB)", b -> b.backupSizeBytes() / GB, true);
        panel(s, 2, "Throughput (MB/s)", b -> seconds(b) <= 0 ? Double.NaN : b.backupSizeBytes() / 1_048_576.0 / seconds(b), true);
        long days = Duration.between(from, to).toDays();
        for (long d = 0; d <= days; d += days > 40 ? 14 : 7) {
            Instant t = from.plus(Duration.ofDays(d));
            s.append("<text class=\"axis\" x=\"").append(f(x(t))).append("\" y=\"").append(HEIGHT - 8)
                    .append("\" text-anchor=\"middle\">").append(t.atZone(zone).format(DAY)).append("</text>");
        }
        for (Change c : changes(backups)) {
            double x = x(c.at());
            s.append("<line class=\"change\" x1=\"").append(f(x)).append("\" x2=\"").append(f(x)).append("\" y1=\"").append(TOP - 4)
                    .append("\" y2=\"").append(HEIGHT - BOTTOM).append("\"><title>").append(esc(c.at().atZone(zone).format(WHEN)
                            + ": " + c.what())).append("</title></line><text class=\"change-label\" x=\"").append(f(Math.min(x + 3,
                            WIDTH - RIGHT - 4))).append("\" y=\"").append(TOP - 8).append("\" text-anchor=\"")
                    .append(x > WIDTH - 200 ? "end" : "start").append("\">").append(esc(c.what())).append("</text>");
        }
        s.append("</svg>");
        return s.toString();
    }

    /** One panel: its axis title with the unit, three gridlines with values, and a marker per backup. */
    private void panel(StringBuilder s, int index, String axis, ToDoubleFunction<BackupRecord> value, boolean sizeBased) {
        double top = TOP + index * (PANEL + GAP);
        double max = 0;
        for (BackupRecord b : backups) {
            double v = value.applyAsDouble(b);
            if (!(sizeBased && snapshot(b)) && Double.isFinite(v)) {
                max = Math.max(max, v);
            }
        }
        double scale = nice(max);
        s.append("<text class=\"axis-title\" x=\"8\" y=\"").append(f(top + PANEL / 2.0)).append("\" transform=\"rotate(-90 8 ")
                .append(f(top + PANEL / 2.0)).append(")\" text-anchor=\"middle\">").append(esc(axis)).append("</text>");
        for (int k = 0; k <= 2; k++) {
            double v = scale * k / 2;
            double y = top + PANEL - PANEL * k / 2.0;
            s.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"").append(f(y))
                    .append("\" y2=\"").append(f(y)).append("\"/><text class=\"axis\" x=\"").append(LEFT - 6).append("\" y=\"")
                    .append(f(y + 4)).append("\" text-anchor=\"end\">").append(number(v)).append("</text>");
        }
        for (BackupRecord b : backups) {
            double v = value.applyAsDouble(b);
            if ((sizeBased && snapshot(b)) || !Double.isFinite(v)) {
                continue;
            }
            double y = top + PANEL - (scale <= 0 ? 0 : v / scale * PANEL);
            s.append("<g class=\"point\" data-algorithm=\"").append(esc(algorithm(b))).append("\">")
                    .append(Marker.of(algorithm(b)).at(x(b.startedAt()), y)).append("><title>").append(esc(tooltip(b)))
                    .append("</title></").append(element(Marker.of(algorithm(b)))).append("></g>");
        }
    }

    private static String element(Marker m) {
        return switch (m) {
            case MS_XPRESS -> "circle";
            case ZSTD -> "rect";
            default -> "path";
        };
    }

    private String tooltip(BackupRecord b) {
        double secs = seconds(b);
        String size = snapshot(b) ? "size an estimate (snapshot)" : Html.bytes(b.backupSizeBytes())
                + (b.compressedSizeBytes() != null && b.compressedSizeBytes() < b.backupSizeBytes()
                ? ", " + Html.bytes(b.compressedSizeBytes()) + " compressed" : "")
                + (secs > 0 ? String.format(Locale.ROOT, ", %.1f MB/s", b.backupSizeBytes() / 1_048_576.0 / secs) : "");
        return b.startedAt().atZone(zone).format(WHEN) + ": " + algorithm(b) + " to " + target(b)
                + (b.copyOnly() ? " (copy-only)" : "") + ", " + Html.duration(Math.round(secs)) + ", " + size;
    }

    private static double seconds(BackupRecord b) {
        return b.finishedAt() == null ? 0 : Duration.between(b.startedAt(), b.finishedAt()).toMillis() / 1000.0;
    }

    /** A round axis maximum at or above {@code max}: 1, 2 or 5 times a power of ten. */
    static double nice(double max) {
        if (max <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(max)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= max) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String number(double v) {
        return v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private double x(Instant t) {
        double span = Math.max(1, Duration.between(from, to).getSeconds());
        return LEFT + (WIDTH - LEFT - RIGHT) * Math.max(0, Math.min(1, Duration.between(from, t).getSeconds() / span));
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
