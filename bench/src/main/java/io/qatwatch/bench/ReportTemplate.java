package io.qatwatch.bench;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulated agent's report serialised once, with its report id and its two new backups' ids left as
 * holes. Filling the holes costs microseconds, so the load driver spends its CPU on sending, not on
 * Jackson, and every body is a new report (unique id, two new backup rows) the collector must store.
 */
public final class ReportTemplate {

    /** New backups per report, as the issue asks: 2 per cycle. */
    public static final int BACKUPS_PER_REPORT = 2;

    private static final String ID_HOLE = "RIDHOLE0000000000";
    private static final long FIRST_HOLE = 987_654_321_001L;
    private static final long SECOND_HOLE = 987_654_321_002L;

    private final String host;
    private final List<byte[]> pieces;
    private final List<Hole> holes;

    private enum Hole { REPORT_ID, FIRST_BACKUP, SECOND_BACKUP }

    private ReportTemplate(String host, List<byte[]> pieces, List<Hole> holes) {
        this.host = host;
        this.pieces = pieces;
        this.holes = holes;
    }

    /** The template of {@code agent}'s regular report created at {@code createdAt}. */
    public static ReportTemplate of(SimulatedAgent agent, Instant createdAt) {
        Instant firstNight = createdAt.minusSeconds(86_400L * 8).truncatedTo(java.time.temporal.ChronoUnit.DAYS)
                .plusSeconds(22 * 3600);
        AgentReport report = agent.report(ID_HOLE, createdAt,
                List.of(agent.nightlyBackup(FIRST_HOLE, 0, 6, firstNight),
                        agent.nightlyBackup(SECOND_HOLE, 1, 6, firstNight)),
                SECOND_HOLE);
        return split(agent.host(), new String(ReportJson.toBytes(report), StandardCharsets.UTF_8));
    }

    static ReportTemplate split(String host, String json) {
        List<byte[]> pieces = new ArrayList<>();
        List<Hole> holes = new ArrayList<>();
        String id = "\"" + ID_HOLE + "\"";
        String first = Long.toString(FIRST_HOLE);
        String second = Long.toString(SECOND_HOLE);
        int from = 0;
        while (true) {
            int a = json.indexOf(id, from);
            int b = json.indexOf(first, from);
            int c = json.indexOf(second, from);
            int next = min(a, b, c);
            if (next < 0) {
                break;
            }
            pieces.add(json.substring(from, next).getBytes(StandardCharsets.UTF_8));
            if (next == a) {
                holes.add(Hole.REPORT_ID);
                from = next + id.length();
            } else if (next == b) {
                holes.add(Hole.FIRST_BACKUP);
                from = next + first.length();
            } else {
                holes.add(Hole.SECOND_BACKUP);
                from = next + second.length();
            }
        }
        pieces.add(json.substring(from).getBytes(StandardCharsets.UTF_8));
        if (!holes.contains(Hole.REPORT_ID) || !holes.contains(Hole.FIRST_BACKUP) || !holes.contains(Hole.SECOND_BACKUP)) {
            throw new IllegalStateException("report template for " + host + " lost a hole: " + holes);
        }
        return new ReportTemplate(host, pieces, holes);
    }

    private static int min(int... positions) {
        int best = -1;
        for (int p : positions) {
            if (p >= 0 && (best < 0 || p < best)) {
                best = p;
            }
        }
        return best;
    }

    public String host() {
        return host;
    }

    /**
     * The {@code sequence}-th report of this agent: report id {@code <host>-<runTag>-<sequence>}, backups
     * {@code 2·sequence+1} and {@code 2·sequence+2} (so the high-water mark rises like a real agent's).
     */
    public byte[] render(String runTag, long sequence) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size() + 64);
        for (int i = 0; i < holes.size(); i++) {
            out.writeBytes(pieces.get(i));
            String value = switch (holes.get(i)) {
                case REPORT_ID -> "\"" + host + "-" + runTag + "-" + sequence + "\"";
                case FIRST_BACKUP -> Long.toString(BACKUPS_PER_REPORT * sequence + 1);
                case SECOND_BACKUP -> Long.toString(BACKUPS_PER_REPORT * sequence + 2);
            };
            out.writeBytes(value.getBytes(StandardCharsets.US_ASCII));
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
