package io.qatwatch.bench;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * One simulated agent's report serialised once, with holes for what changes from report to report: the
 * report id and the two new backups' ids and times. Filling the holes costs microseconds, so the load
 * driver spends its CPU on sending, not on Jackson, and every body is a new report (unique id, two new
 * backup rows with their own times, so they are new points in InfluxDB too) that the collector must store.
 */
public final class ReportTemplate {

    /** New backups per report, as the issue asks: 2 per cycle. */
    public static final int BACKUPS_PER_REPORT = 2;

    /** Backups of report {@code n} start {@code n} hours after the first: years of room before "now". */
    static final Duration STEP = Duration.ofHours(1);
    static final Duration HISTORY = Duration.ofDays(20 * 365);

    private final String host;
    private final List<byte[]> pieces;
    private final List<LongFunction<String>> holes;

    /** A value in the serialised template and what replaces it in the report of sequence number n. */
    private record Hole(String sentinel, LongFunction<String> value) {
    }

    private ReportTemplate(String host, List<byte[]> pieces, List<LongFunction<String>> holes) {
        this.host = host;
        this.pieces = pieces;
        this.holes = holes;
    }

    /**
     * One template per simulated agent 0 to {@code agents} - 1, created now: their report ids carry this run's tag, so
     * a run never repeats an earlier run's ids.
     */
    static List<ReportTemplate> forAgents(int agents) {
        Instant createdAt = Instant.now();
        String runTag = Long.toString(createdAt.getEpochSecond(), 36);
        List<ReportTemplate> templates = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            templates.add(of(new SimulatedAgent(i), createdAt, runTag));
        }
        return templates;
    }

    /** The template of {@code agent}'s regular report created at {@code createdAt}, reporting databases 0 and 1. */
    public static ReportTemplate of(SimulatedAgent agent, Instant createdAt, String runTag) {
        return of(agent, createdAt, runTag, 0);
    }

    /** As {@link #of(SimulatedAgent, Instant, String)}, backup ids counting from {@code idBase + 1} (above a filled store's). */
    public static ReportTemplate of(SimulatedAgent agent, Instant createdAt, String runTag, long idBase) {
        Instant first = createdAt.minus(HISTORY).truncatedTo(ChronoUnit.DAYS).plus(Duration.ofHours(22));
        BackupRecord a = agent.nightlyBackup(1, 0, 0, first);
        BackupRecord b = agent.nightlyBackup(2, 1, 0, first);
        String idSentinel = "RIDHOLE0000000000";
        long[] ids = {987_654_321_001L, 987_654_321_002L};
        Instant[] times = {Instant.parse("1999-01-01T00:00:01Z"), Instant.parse("1999-01-01T00:00:02Z"),
            Instant.parse("1999-01-01T00:00:03Z"), Instant.parse("1999-01-01T00:00:04Z")};
        AgentReport report = agent.report(idSentinel, createdAt, List.of(
                withIdAndTimes(a, ids[0], times[0], times[1]), withIdAndTimes(b, ids[1], times[2], times[3])), ids[1]);
        List<Hole> holes = List.of(
                new Hole("\"" + idSentinel + "\"", n -> "\"" + agent.host() + "-" + runTag + "-" + n + "\""),
                new Hole(Long.toString(ids[0]), n -> Long.toString(idBase + BACKUPS_PER_REPORT * n + 1)),
                new Hole(Long.toString(ids[1]), n -> Long.toString(idBase + BACKUPS_PER_REPORT * n + 2)),
                new Hole(times[0].toString(), n -> shifted(a.startedAt(), n)),
                new Hole(times[1].toString(), n -> shifted(a.finishedAt(), n)),
                new Hole(times[2].toString(), n -> shifted(b.startedAt(), n)),
                new Hole(times[3].toString(), n -> shifted(b.finishedAt(), n)));
        return split(agent.host(), new String(ReportJson.toBytes(report), StandardCharsets.UTF_8), holes);
    }

    private static BackupRecord withIdAndTimes(BackupRecord b, long id, Instant start, Instant finish) {
        return new BackupRecord(id, b.databaseName(), b.databaseGuid(), b.type(), b.copyOnly(), start, finish,
                b.timeZoneKnown(), b.backupSizeBytes(), b.compressedSizeBytes(), b.compressionAlgorithm(),
                b.hasChecksums(), b.keyAlgorithm(), b.encryptorThumbprint(), b.encryptorType(), b.deviceType(), b.target());
    }

    private static String shifted(Instant t, long n) {
        return t.plus(STEP.multipliedBy(n)).toString();
    }

    private static ReportTemplate split(String host, String json, List<Hole> holes) {
        List<byte[]> pieces = new ArrayList<>();
        List<LongFunction<String>> order = new ArrayList<>();
        int from = 0;
        while (true) {
            int next = -1;
            Hole found = null;
            for (Hole h : holes) {
                int at = json.indexOf(h.sentinel(), from);
                if (at >= 0 && (next < 0 || at < next)) {
                    next = at;
                    found = h;
                }
            }
            if (found == null) {
                break;
            }
            pieces.add(json.substring(from, next).getBytes(StandardCharsets.UTF_8));
            order.add(found.value());
            from = next + found.sentinel().length();
        }
        pieces.add(json.substring(from).getBytes(StandardCharsets.UTF_8));
        // the high-water mark repeats the second backup's id, hence one more hole than sentinels
        if (order.size() != holes.size() + 1) {
            throw new IllegalStateException("report template for " + host + " found " + order.size()
                    + " holes, expected " + (holes.size() + 1) + ": did the JSON mapping change?");
        }
        return new ReportTemplate(host, pieces, order);
    }

    public String host() {
        return host;
    }

    /**
     * The {@code sequence}-th report of this agent: report id {@code <host>-<runTag>-<sequence>}, backups
     * {@code 2·sequence+1} and {@code 2·sequence+2} (so the high-water mark rises like a real agent's),
     * started {@code sequence} hours after the first report's.
     */
    public byte[] render(long sequence) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size() + 128);
        for (int i = 0; i < holes.size(); i++) {
            out.writeBytes(pieces.get(i));
            out.writeBytes(holes.get(i).apply(sequence).getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes(pieces.get(pieces.size() - 1));
        return out.toByteArray();
    }

    /** Bytes of the template without its holes: about the size of every body sent. */
    public int size() {
        int n = 0;
        for (byte[] p : pieces) {
            n += p.length;
        }
        return n;
    }
}
