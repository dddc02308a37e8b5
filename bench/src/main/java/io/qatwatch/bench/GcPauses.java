package io.qatwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stop-the-world pauses of a server JVM, read from its unified GC log ({@code -Xlog:gc:file=F:time}), so a
 * request's time can be set beside the pauses that fell inside it: a page's tail is often a collection, not the page.
 */
public final class GcPauses {

    /** One pause: when it began and ended (epoch milliseconds) and what it was ("Pause Young (Mixed)", ...). */
    public record Pause(double startMillis, double endMillis, String kind) {

        public double millis() {
            return endMillis - startMillis;
        }

        boolean overlaps(long fromMillis, long toMillis) {
            return endMillis >= fromMillis && startMillis <= toMillis;
        }
    }

    /** One bracketed part, which may hold a pair itself: "(System.gc())". */
    private static final String PARENS = "\\((?:[^()]|\\([^()]*\\))*\\)";
    /** A {@code time}-decorated line of the {@code gc} tag ending in the pause's duration: logged when it ends. */
    private static final Pattern PAUSE = Pattern.compile(
            "^\\[([0-9T:.+\\-]+)\\]\\s*(?:\\[[^]]*\\]\\s*)*GC\\(\\d+\\) (Pause [A-Za-z]+(?: " + PARENS + ")?).*? ([0-9.]+)ms$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    private GcPauses() {
    }

    /** The JVM option that writes the log this class reads. */
    public static String logOption(Path file) {
        return "-Xlog:gc:file=" + file + ":time";
    }

    /** Every pause in the log; none when the file does not exist (the JVM wrote no log). */
    public static List<Pause> read(Path file) throws IOException {
        return Files.exists(file) ? parse(Files.readAllLines(file)) : List.of();
    }

    static List<Pause> parse(List<String> lines) {
        List<Pause> out = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line.strip());
            if (m.find()) {
                double end = OffsetDateTime.parse(m.group(1), TIME).toInstant().toEpochMilli();
                double millis = Double.parseDouble(m.group(3));
                out.add(new Pause(end - millis, end, m.group(2)));
            }
        }
        return out;
    }

    /** The pauses that overlap any of {@code requests} ({@code [from, to]} epoch milliseconds each). */
    public static List<Pause> within(List<Pause> pauses, List<long[]> requests) {
        List<Pause> out = new ArrayList<>();
        for (Pause p : pauses) {
            for (long[] r : requests) {
                if (p.overlaps(r[0], r[1])) {
                    out.add(p);
                    break;
                }
            }
        }
        return out;
    }
}
