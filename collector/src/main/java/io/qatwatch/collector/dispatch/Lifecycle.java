package io.qatwatch.collector.dispatch;

import io.qatwatch.collector.alert.Alert;
import io.qatwatch.collector.alert.AlertRecord;
import io.qatwatch.collector.alert.rule.AlertEvaluator.Evaluation;
import io.qatwatch.collector.dispatch.AlertEvent.Kind;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The alerts' lives from one evaluation to the next, as one pure function: firing alerts keep their start, vanished
 * ones resolve, failed rules keep theirs; an alert that fires again after resolving counts toward flapping; an
 * acknowledgement ends when its alert resolves, expires or gets worse. Says what happened (history events) and what
 * a message should add under each alert (remarks).
 */
final class Lifecycle {

    /** Resolved alerts are kept this long (for the resolved announcement and the status page), then forgotten. */
    static final Duration KEEP_RESOLVED = Duration.ofDays(7);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT);

    private Lifecycle() {
    }

    /**
     * The next state.
     *
     * @param alerts    every kept alert by id, firing or resolved
     * @param events    what happened, for the history
     * @param ackEnded  acknowledgements that no longer hold (resolved, expired, or the alert got worse)
     * @param remarks   per alert id, lines a message shows under it
     */
    record Merged(Map<String, AlertRecord> alerts, List<AlertEvent> events, List<String> ackEnded,
                  Map<String, List<String>> remarks) {
    }

    static Merged merge(Map<String, AlertRecord> before, Evaluation e, Map<String, Acknowledgement> acks,
            Predicate<Alert> silenced, Instant now, PipelineConfig p) {
        Duration window = p.flapWindow();
        Map<String, AlertRecord> next = new LinkedHashMap<>();
        List<AlertEvent> events = new ArrayList<>();
        List<String> ackEnded = new ArrayList<>();
        Map<String, List<String>> remarks = new LinkedHashMap<>();
        for (Alert a : e.alerts()) {
            String id = a.id();
            AlertRecord old = before.get(id);
            AlertRecord rec;
            if (old != null && old.firing()) {
                rec = new AlertRecord(a, old.since(), null, silenced.test(a), recent(old.refires(), now, window, p));
                if (old.alert().severity() != a.severity()) {
                    events.add(new AlertEvent(id, now, Kind.SEVERITY, null,
                            old.alert().severity().label() + " → " + a.severity().label() + ": " + a.summary()));
                }
            } else {
                List<Instant> refires = old == null ? List.of() : recent(plus(old.refires(), now), now, window, p);
                rec = new AlertRecord(a, now, null, silenced.test(a), refires);
                events.add(new AlertEvent(id, now, Kind.FIRED, null, a.severity().label() + ": " + a.summary()));
                if (old != null && flapping(rec, p) && !flapping(old, p)) {
                    events.add(new AlertEvent(id, now, Kind.FLAPPING, null, flapText(rec, p, now)));
                }
            }
            next.put(id, rec);
            Acknowledgement ack = acks.get(id);
            if (ack != null) {
                String worse = worse(ack, a, p.renotifyShiftDays());
                if (!ack.activeAt(now)) {
                    ackEnded.add(id);
                    events.add(new AlertEvent(id, now, Kind.ACKNOWLEDGEMENT_EXPIRED, null, "acknowledged by " + ack.by()
                            + " until " + WHEN.format(ack.expiresAt().atOffset(ZoneOffset.UTC))));
                } else if (worse != null) {
                    ackEnded.add(id);
                    events.add(new AlertEvent(id, now, Kind.ACKNOWLEDGEMENT_LIFTED, null, worse));
                    remark(remarks, id, "Acknowledged by " + ack.by() + " at " + WHEN.format(ack.at().atOffset(ZoneOffset.UTC))
                            + "; lifted: " + worse);
                } else {
                    remark(remarks, id, acknowledged(ack));
                }
            }
        }
        for (AlertRecord old : before.values()) {
            if (next.containsKey(old.id())) {
                continue;
            }
            if (old.firing() && e.ruleErrors().containsKey(old.alert().rule())) {
                next.put(old.id(), old);
                if (acks.containsKey(old.id())) {
                    remark(remarks, old.id(), acknowledged(acks.get(old.id())));
                }
            } else if (old.firing()) {
                next.put(old.id(), new AlertRecord(old.alert(), old.since(), now, old.silenced(), recent(old.refires(), now, window, p)));
                events.add(new AlertEvent(old.id(), now, Kind.RESOLVED, null, old.alert().summary()));
                if (acks.containsKey(old.id())) {
                    ackEnded.add(old.id());
                }
            } else if (old.resolvedAt().plus(KEEP_RESOLVED).isAfter(now)) {
                List<Instant> refires = recent(old.refires(), now, window, p);
                next.put(old.id(), refires.size() == old.refires().size() ? old
                        : new AlertRecord(old.alert(), old.since(), old.resolvedAt(), old.silenced(), refires));
            }
        }
        for (AlertRecord r : next.values()) {
            AlertRecord old = before.get(r.id());
            if (flapping(r, p)) {
                remark(remarks, r.id(), "Flapping: " + flapText(r, p, now));
            } else if (old != null && flapping(old, p)) {
                events.add(new AlertEvent(r.id(), now, Kind.STEADY, null, "no longer flapping: it did not fire again for "
                        + p.flapWindowMinutes() + " min; it is " + (r.firing() ? "firing" : "resolved")));
            }
        }
        return new Merged(next, events, ackEnded, remarks);
    }

    /** Why {@code a} is worse than when it was acknowledged, or null when it is not. */
    static String worse(Acknowledgement ack, Alert a, int shiftDays) {
        if (a.severity().compareTo(ack.severity()) > 0) {
            return "severity rose from " + ack.severity().label() + " to " + a.severity().label();
        }
        if (NotificationDecision.movedEarlier(ack.forecast(), a.forecast(), shiftDays)) {
            return "forecast moved earlier to " + a.forecast() + ", was " + ack.forecast();
        }
        return null;
    }

    /** Flapping as the pipeline defines it, counted over the refires this merge kept. */
    static boolean flapping(AlertRecord r, PipelineConfig p) {
        return p.flapThreshold() > 0 && r.refires().size() >= p.flapThreshold();
    }

    private static String flapText(AlertRecord r, PipelineConfig p, Instant now) {
        int lately = r.refiresWithin(now, p.flapWindow());
        String count = lately >= p.flapThreshold()
                ? "resolved and fired again " + lately + " times in the last " + hours(p.flapWindowMinutes())
                : "resolved and fired again " + r.refires().size() + " times, the last at "
                        + WHEN.format(r.refires().get(r.refires().size() - 1).atOffset(ZoneOffset.UTC));
        return count + "; repeats and resolutions are held until it stays steady for " + hours(p.flapWindowMinutes());
    }

    private static String hours(int minutes) {
        return minutes % 60 == 0 ? minutes / 60 + " h" : minutes + " min";
    }

    static String acknowledged(Acknowledgement ack) {
        return "Acknowledged by " + ack.by() + " at " + WHEN.format(ack.at().atOffset(ZoneOffset.UTC))
                + (ack.expiresAt() == null ? "" : " until " + WHEN.format(ack.expiresAt().atOffset(ZoneOffset.UTC)))
                + (ack.note() == null ? "" : ": " + ack.note());
    }

    /** "Now under the safety margin by 12 Jan, was 30 Jan" (creep), else "Forecast now ..., was ...". */
    static String forecastMoved(Alert a, LocalDate was, Instant now) {
        String at = day(a.forecast(), now);
        String before = day(was, now);
        return a.rule().equals("backup-window-creep") ? "Now under the safety margin by " + at + ", was " + before
                : "Forecast now " + at + ", was " + before;
    }

    private static String day(LocalDate d, Instant now) {
        boolean thisYear = d.getYear() == now.atOffset(ZoneOffset.UTC).getYear();
        return d.format(DateTimeFormatter.ofPattern(thisYear ? "d MMM" : "d MMM yyyy", Locale.ENGLISH));
    }

    private static void remark(Map<String, List<String>> remarks, String id, String text) {
        remarks.computeIfAbsent(id, k -> new ArrayList<>()).add(text);
    }

    /**
     * The refires to keep: those in the window, except that a flapping alert keeps its last {@code flapThreshold} ones
     * (so it stays flapping) until its newest re-firing is older than the window: it is steady only once it "has not
     * fired again for the window", not when the third-newest re-firing leaves it.
     */
    static List<Instant> recent(List<Instant> times, Instant now, Duration window, PipelineConfig p) {
        Instant from = now.minus(window);
        List<Instant> inWindow = times.stream().filter(t -> t.isAfter(from)).toList();
        int threshold = p.flapThreshold();
        if (threshold > 0 && times.size() >= threshold && !inWindow.isEmpty() && inWindow.size() < threshold) {
            return List.copyOf(times.subList(times.size() - threshold, times.size()));
        }
        return inWindow;
    }

    private static List<Instant> plus(List<Instant> times, Instant t) {
        List<Instant> out = new ArrayList<>(times);
        out.add(t);
        return out;
    }
}
