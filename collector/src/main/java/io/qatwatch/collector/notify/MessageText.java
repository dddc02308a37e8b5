package io.qatwatch.collector.notify;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.dispatch.Notification;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The words every channel shows: a title, and per alert its summary, where, since when, why, the numbers
 * and the link. Channels differ only in markup, given by {@link Markup}.
 */
public final class MessageText {

    private static final DateTimeFormatter SINCE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT);

    private MessageText() {
    }

    /** Bold and link syntax of a channel. */
    public enum Markup {
        /** Slack mrkdwn and Google Chat: *bold*, &lt;url|text&gt;. */
        SLACK,
        /** Markdown (Mattermost, Teams TextBlock): **bold**, [text](url). */
        MARKDOWN,
        /** Plain text (email). */
        PLAIN;

        String bold(String s) {
            return switch (this) {
                case SLACK -> "*" + s + "*";
                case MARKDOWN -> "**" + s + "**";
                case PLAIN -> s;
            };
        }

        String link(String url, String text) {
            return switch (this) {
                case SLACK -> "<" + url + "|" + text + ">";
                case MARKDOWN -> "[" + text + "](" + url + ")";
                case PLAIN -> text + ": " + url;
            };
        }
    }

    /** {@code [FIRING 2] backup-window-creep on sql-fra-01 / PROD}, or RESOLVED when nothing fires. */
    public static String title(Notification n) {
        AlertRecord first = n.firing().isEmpty() ? n.resolved().get(0) : n.firing().get(0);
        String state = n.firing().isEmpty() ? "RESOLVED" : "FIRING " + n.firing().size();
        String resolved = !n.firing().isEmpty() && !n.resolved().isEmpty() ? ", resolved " + n.resolved().size() : "";
        return "[" + state + resolved + "] " + first.alert().rule() + " on " + first.alert().where();
    }

    /** One alert as lines: summary, where and since, why, facts, series, link. */
    public static String alert(AlertRecord r, Notification n, Markup m, boolean withFacts) {
        Alert a = r.alert();
        StringBuilder s = new StringBuilder();
        s.append(r.firing() ? severityMark(a) + " " : "RESOLVED ").append(m.bold(a.summary())).append('\n');
        s.append(a.where()).append(" · since ").append(SINCE.format(r.since().atOffset(ZoneOffset.UTC)));
        if (!r.firing()) {
            s.append(" · resolved ").append(SINCE.format(r.resolvedAt().atOffset(ZoneOffset.UTC)));
        }
        s.append('\n');
        for (String remark : n.remarks(r)) {
            s.append(m.bold(remark)).append('\n');
        }
        if (r.firing()) {
            s.append(a.why()).append('\n');
        }
        if (withFacts && r.firing()) {
            s.append(facts(a, m));
        }
        s.append(m.link(n.link(r), "Open on the status page"));
        return s.toString();
    }

    /** The facts and the series as lines. */
    public static String facts(Alert a, Markup m) {
        StringBuilder s = new StringBuilder();
        for (Alert.Fact f : a.facts()) {
            s.append(m.bold(f.label())).append(": ").append(f.value()).append('\n');
        }
        if (!a.series().isEmpty()) {
            s.append(m.bold(seriesLabel(a))).append(": ")
                    .append(a.series().stream().map(f -> f.label() + " " + f.value()).collect(Collectors.joining(", ")))
                    .append('\n');
        }
        return s.toString();
    }

    /** What the series shows, in words. */
    public static String seriesLabel(Alert a) {
        return a.rule().equals("backup-throughput-drop") ? "Recent fulls" : "Margins, night before";
    }

    /** {@code CRITICAL}, {@code WARNING}, {@code INFO}. */
    public static String severityMark(Alert a) {
        return a.severity().name();
    }

    /** Everything, for channels that take one text. */
    public static String full(Notification n, Markup m) {
        StringBuilder s = new StringBuilder(m.bold(title(n))).append("\n\n");
        for (AlertRecord r : n.firing()) {
            s.append(alert(r, n, m, true)).append("\n\n");
        }
        for (AlertRecord r : n.resolved()) {
            s.append(alert(r, n, m, false)).append("\n\n");
        }
        s.append(m.link(n.link(), "qatwatch status page"));
        return s.toString();
    }
}
