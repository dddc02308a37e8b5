package io.qatwatch.collector.web;

import io.qatwatch.collector.analysis.FleetCompression;
import io.qatwatch.collector.analysis.FleetCompression.Row;
import io.qatwatch.collector.analysis.RestoreSpeeds;
import io.qatwatch.collector.compression.AlgorithmStats;
import io.qatwatch.collector.compression.Comparison;
import io.qatwatch.collector.compression.Judgement;
import io.qatwatch.collector.compression.Verdict;
import io.vertx.core.MultiMap;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which rows of {@code GET /api/v1/compression} a read asks for, and the rows in the API's shape.
 *
 * @param host     a shell-style pattern ({@code *}, {@code ?}), case-insensitive; null for any
 * @param instance a pattern like {@code host}; null for any
 * @param database a pattern like {@code host}; null for any
 * @param verdict  only rows with this verdict; null for any
 * @param offset   rows to skip (the next link's)
 */
public record CompressionQuery(String host, String instance, String database, Verdict verdict, int limit, int offset) {

    public static final int DEFAULT_LIMIT = 1000;
    public static final int MAX_LIMIT = 5000;
    private static final Pattern NAME_PATTERN = Pattern.compile("[\\p{L}\\p{N} ._\\-$#@*?]{1,128}");

    /** Reads {@code host}, {@code instance}, {@code database}, {@code verdict}, {@code limit} and {@code offset}. */
    public static CompressionQuery parse(MultiMap params) throws FleetQuery.BadQuery {
        String host = pattern(params, "host");
        String instance = pattern(params, "instance");
        String database = pattern(params, "database");
        String verdictText = blankToNull(params.get("verdict"));
        Verdict verdict = verdictText == null ? null : Verdict.parse(verdictText);
        if (verdictText != null && verdict == null) {
            throw new FleetQuery.BadQuery("verdict", "verdict must be one of " + Arrays.toString(Verdict.values())
                    + " (got '" + verdictText + "')");
        }
        int limit = number(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        int offset = number(params, "offset", 0, 0, Integer.MAX_VALUE);
        return new CompressionQuery(host, instance, database, verdict, limit, offset);
    }

    private static String pattern(MultiMap params, String name) throws FleetQuery.BadQuery {
        String p = blankToNull(params.get(name));
        if (p != null && !NAME_PATTERN.matcher(p).matches()) {
            throw new FleetQuery.BadQuery(name, name + " must be a name or a pattern with the wildcards '*' and '?' "
                    + "(letters, digits, space, '.', '_', '-', '$', '#', '@'; got '" + p + "')");
        }
        return p;
    }

    private static int number(MultiMap params, String name, int dflt, int min, int max) throws FleetQuery.BadQuery {
        String text = blankToNull(params.get(name));
        if (text == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new FleetQuery.BadQuery(name, name + " must be a whole number from " + min + " to " + max + " (got '" + text + "')");
    }

    /** One page of the matching rows, and how many matched. */
    public record Page(List<Map<String, Object>> rows, int total, CompressionQuery next) {
    }

    /** The rows of {@code compression} this query matches, one page of them in the API's shape. */
    public Page page(FleetCompression compression) {
        return page(compression, RestoreSpeeds.NONE);
    }

    /** As {@link #page(FleetCompression)}, each algorithm with its host's restore speed from {@code restores}. */
    public Page page(FleetCompression compression, RestoreSpeeds restores) {
        Pattern h = compile(host);
        Pattern i = compile(instance);
        Pattern d = compile(database);
        List<Row> matching = new ArrayList<>();
        for (Row r : compression.rows()) {
            if (matches(h, r.host()) && matches(i, r.instance()) && matches(d, r.comparison().database())
                    && (verdict == null || verdict == r.comparison().verdict())) {
                matching.add(r);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (int n = offset; n < matching.size() && n < (long) offset + limit; n++) {
            out.add(json(matching.get(n), restores));
        }
        CompressionQuery next = (long) offset + limit < matching.size()
                ? new CompressionQuery(host, instance, database, verdict, limit, offset + limit) : null;
        return new Page(out, matching.size(), next);
    }

    /** {@code ?host=...&offset=...}: this query as the next link says it ({@link #DEFAULT_LIMIT} left out). */
    public String queryString() {
        StringBuilder q = new StringBuilder();
        param(q, "host", host);
        param(q, "instance", instance);
        param(q, "database", database);
        param(q, "verdict", verdict == null ? null : verdict.name());
        param(q, "limit", limit == DEFAULT_LIMIT ? null : Integer.toString(limit));
        param(q, "offset", offset == 0 ? null : Integer.toString(offset));
        return q.toString();
    }

    /** One row as docs/collector.md documents it, without restore speeds. */
    public static Map<String, Object> json(Row r) {
        return json(r, RestoreSpeeds.NONE);
    }

    /** One row as docs/collector.md documents it; {@code restores} gives each algorithm's restore speed on the row's host. */
    public static Map<String, Object> json(Row r, RestoreSpeeds restores) {
        Comparison c = r.comparison();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("host", r.host());
        row.put("instance", r.instance());
        row.put("database", c.database());
        row.put("backupType", c.kind().label());
        row.put("target", c.target());
        Map<String, Object> encrypted = new LinkedHashMap<>();
        encrypted.put("tde", c.tde());
        encrypted.put("backup", c.backupEncrypted());
        row.put("encrypted", encrypted);
        List<Map<String, Object>> algorithms = new ArrayList<>();
        for (Comparison.Entry e : c.algorithms()) {
            AlgorithmStats s = e.stats();
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("label", s.method().label());
            a.put("algorithm", s.method().algorithm());
            a.put("level", s.method().level());
            a.put("mode", s.method().mode());
            a.put("backups", s.backups());
            a.put("copyOnlyBackups", s.copyOnlyBackups());
            a.put("medianSeconds", round(s.seconds().median(), 1));
            a.put("secondsIqr", List.of(round(s.seconds().q1(), 1), round(s.seconds().q3(), 1)));
            a.put("medianMbps", round(s.mbps().median(), 2));
            a.put("mbpsIqr", List.of(round(s.mbps().q1(), 2), round(s.mbps().q3(), 2)));
            a.put("medianRatio", round(s.ratio().median(), 3));
            a.put("ratioIqr", List.of(round(s.ratio().q1(), 3), round(s.ratio().q3(), 3)));
            a.put("cpuBackups", s.cpuBackups());
            a.put("medianCpuSecondsPerGb", s.cpuSecondsPerGb() == null ? null : round(s.cpuSecondsPerGb().median(), 3));
            a.put("cpuSecondsPerGbIqr", s.cpuSecondsPerGb() == null ? null
                    : List.of(round(s.cpuSecondsPerGb().q1(), 3), round(s.cpuSecondsPerGb().q3(), 3)));
            // restores of this host from backups of this algorithm and target (issue 30)
            java.util.Optional<RestoreSpeeds.Speed> restore = restores.of(r.host(), s.method().algorithm(), c.target());
            a.put("restores", restore.map(RestoreSpeeds.Speed::restores).orElse(0));
            a.put("medianRestoreMbps", restore.map(x -> round(x.medianMbps(), 2)).orElse(null));
            a.put("latestFinish", s.latest());
            a.put("verdict", e.judgement() == null ? null : e.judgement().verdict().name());
            a.put("speedGainPercent", e.judgement() == null ? null : round(e.judgement().speedGainPercent(), 1));
            a.put("sizeGainPercent", e.judgement() == null ? null : round(e.judgement().sizeGainPercent(), 1));
            a.put("cpuGainPercent", e.judgement() == null || !e.judgement().cpuObserved() ? null
                    : round(e.judgement().cpuGainPercent(), 1));
            algorithms.add(a);
        }
        row.put("algorithms", algorithms);
        row.put("baseline", c.baseline().label());
        row.put("alternative", c.alternative() == null ? null : c.alternative().label());
        row.put("current", c.current() == null ? null : c.current().label());
        row.put("verdict", c.verdict().name());
        row.put("speedGainPercent", c.speedGainPercent() == null ? null : round(c.speedGainPercent(), 1));
        row.put("sizeGainPercent", c.sizeGainPercent() == null ? null : round(c.sizeGainPercent(), 1));
        row.put("cpuGainPercent", c.cpuGainPercent() == null ? null : round(c.cpuGainPercent(), 1));
        // the gains in words, as the status page and chat say them; null with SINGLE_ALGORITHM
        row.put("gains", c.alternative() == null || c.speedGainPercent() == null || c.sizeGainPercent() == null ? null
                : Judgement.words(c.speedGainPercent(), c.sizeGainPercent(), c.cpuGainPercent()));
        row.put("cpuNote", c.alternative() == null || c.cpuGainPercent() != null ? null
                : "CPU not observed on enough backups of both methods (backups that ran between the agent's polls, or a login "
                        + "without VIEW SERVER STATE): the verdict rests on time and size");
        return row;
    }

    private static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }

    private static Pattern compile(String glob) {
        if (glob == null) {
            return null;
        }
        StringBuilder re = new StringBuilder();
        for (char ch : glob.toCharArray()) {
            re.append(ch == '*' ? ".*" : ch == '?' ? "." : Pattern.quote(String.valueOf(ch)));
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    private static boolean matches(Pattern p, String value) {
        return p == null || value != null && p.matcher(value).matches();
    }

    private static void param(StringBuilder q, String name, String value) {
        if (value != null) {
            q.append(q.isEmpty() ? '?' : '&').append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
