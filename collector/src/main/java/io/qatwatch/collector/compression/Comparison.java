package io.qatwatch.collector.compression;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One database's backups of one kind to one kind of target, with one encryption, compared across the compression
 * methods they were taken with (what {@code GET /api/v1/compression} answers per row, without host and instance).
 * A record's parts, equality, hash and printing, held in fewer objects and bytes: a row of one method (most rows) holds
 * its statistics without a list and an entry around them and no alternative or gains, its kind, verdict, TDE state and
 * encryption in one int, and the newest backup's finish as numbers (the alert stage holds every instance's comparisons
 * between evaluations).
 */
public final class Comparison {

    private static final BackupKind[] KINDS = BackupKind.values();
    private static final Verdict[] VERDICTS = Verdict.values();
    private static final int TDE_SHIFT = 16;
    private static final int ENCRYPTED = 1 << 18;

    private final String database;
    private final String target;
    /** The one method's statistics when the row has one entry and no judgement (the baseline alone), else the entries. */
    private final Object algorithms;
    private final Method baseline;
    private final Method current;
    /** The alternative and the gains; null when all four are (a row of one method: most rows). */
    private final Judged judged;
    /**
     * The kind and the verdict (each its ordinal plus one, 0 for null: bits 0-7 and 8-15), the TDE state (bits 16-17: 0
     * unknown, 1 off, 2 on) and the backup encryption (bit 18) in one int, not three references and a boolean.
     */
    private final int parts;
    /** {@code currentAt} as epoch seconds and nanoseconds; -1 nanoseconds for none. */
    private final long currentAtSecond;
    private final int currentAtNano;

    private record Judged(Method alternative, Double speedGainPercent, Double sizeGainPercent, Double cpuGainPercent) {
    }

    /**
     * @param tde          the database's TDE state as the instance reports it now (msdb keeps none per backup); null unknown
     * @param algorithms   each method's statistics, the baseline first, with its judgement against the baseline (null for it)
     * @param baseline     MS_XPRESS when it was used, else the method with the most backups
     * @param alternative  the method the row's verdict is about: the best judged; null with SINGLE_ALGORITHM
     * @param current      the method of the newest backup that was not copy-only (what the jobs use); null when all were
     * @param currentAt    that backup's finish; null with it
     * @param cpuGainPercent the alternative's CPU-per-GB gain over the baseline; null when CPU was not observed on enough
     *                     backups of both (the verdict then rests on time and size alone)
     */
    public Comparison(String database, BackupKind kind, String target, Boolean tde, boolean backupEncrypted,
                      List<Entry> algorithms, Method baseline, Method alternative, Verdict verdict,
                      Double speedGainPercent, Double sizeGainPercent, Double cpuGainPercent, Method current,
                      Instant currentAt) {
        this.database = database;
        this.target = target;
        List<Entry> entries = List.copyOf(algorithms);
        this.algorithms = entries.size() == 1 && entries.get(0).judgement() == null && entries.get(0).stats() != null
                ? entries.get(0).stats() : entries;
        this.baseline = baseline;
        this.current = current;
        this.judged = alternative == null && speedGainPercent == null && sizeGainPercent == null && cpuGainPercent == null
                ? null : new Judged(alternative, speedGainPercent, sizeGainPercent, cpuGainPercent);
        this.parts = (kind == null ? 0 : kind.ordinal() + 1) | (verdict == null ? 0 : verdict.ordinal() + 1) << 8
                | (tde == null ? 0 : tde ? 2 : 1) << TDE_SHIFT | (backupEncrypted ? ENCRYPTED : 0);
        this.currentAtSecond = currentAt == null ? 0 : currentAt.getEpochSecond();
        this.currentAtNano = currentAt == null ? -1 : currentAt.getNano();
    }

    /** One method of the row and, unless it is the baseline, its judgement against it. */
    public record Entry(AlgorithmStats stats, Judgement judgement) {
    }

    /** The statistics of {@code method} in this row, if it was used. */
    public java.util.Optional<AlgorithmStats> stats(Method method) {
        if (algorithms instanceof AlgorithmStats only) {
            return only.method().equals(method) ? java.util.Optional.of(only) : java.util.Optional.empty();
        }
        return algorithms().stream().map(Entry::stats).filter(s -> s.method().equals(method)).findFirst();
    }

    public String database() {
        return database;
    }

    public BackupKind kind() {
        int k = parts & 0xFF;
        return k == 0 ? null : KINDS[k - 1];
    }

    public String target() {
        return target;
    }

    public Boolean tde() {
        int t = parts >> TDE_SHIFT & 3;
        return t == 0 ? null : t == 2;
    }

    public boolean backupEncrypted() {
        return (parts & ENCRYPTED) != 0;
    }

    /** The entries, the baseline first: an unmodifiable list, equal from call to call. */
    @SuppressWarnings("unchecked")
    public List<Entry> algorithms() {
        return algorithms instanceof AlgorithmStats only ? List.of(new Entry(only, null)) : (List<Entry>) algorithms;
    }

    public Method baseline() {
        return baseline;
    }

    public Method alternative() {
        return judged == null ? null : judged.alternative();
    }

    public Verdict verdict() {
        int v = parts >> 8 & 0xFF;
        return v == 0 ? null : VERDICTS[v - 1];
    }

    public Double speedGainPercent() {
        return judged == null ? null : judged.speedGainPercent();
    }

    public Double sizeGainPercent() {
        return judged == null ? null : judged.sizeGainPercent();
    }

    public Double cpuGainPercent() {
        return judged == null ? null : judged.cpuGainPercent();
    }

    public Method current() {
        return current;
    }

    public Instant currentAt() {
        return currentAtNano < 0 ? null : Instant.ofEpochSecond(currentAtSecond, currentAtNano);
    }

    /** Equal when every part is, as a record's. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Comparison c && parts == c.parts && currentAtSecond == c.currentAtSecond
                && currentAtNano == c.currentAtNano && Objects.equals(database, c.database)
                && Objects.equals(target, c.target) && Objects.equals(algorithms, c.algorithms)
                && Objects.equals(baseline, c.baseline) && Objects.equals(judged, c.judged)
                && Objects.equals(current, c.current);
    }

    /** The hash the record gave: 31 times the parts so far plus the next part's hash. */
    @Override
    public int hashCode() {
        int h = Objects.hashCode(database);
        h = 31 * h + Objects.hashCode(kind());
        h = 31 * h + Objects.hashCode(target);
        h = 31 * h + Objects.hashCode(tde());
        h = 31 * h + Boolean.hashCode(backupEncrypted());
        h = 31 * h + algorithms().hashCode();
        h = 31 * h + Objects.hashCode(baseline);
        h = 31 * h + Objects.hashCode(alternative());
        h = 31 * h + Objects.hashCode(verdict());
        h = 31 * h + Objects.hashCode(speedGainPercent());
        h = 31 * h + Objects.hashCode(sizeGainPercent());
        h = 31 * h + Objects.hashCode(cpuGainPercent());
        h = 31 * h + Objects.hashCode(current);
        return 31 * h + Objects.hashCode(currentAt());
    }

    /** As a record prints itself. */
    @Override
    public String toString() {
        return "Comparison[database=" + database + ", kind=" + kind() + ", target=" + target + ", tde=" + tde()
                + ", backupEncrypted=" + backupEncrypted() + ", algorithms=" + algorithms() + ", baseline=" + baseline
                + ", alternative=" + alternative() + ", verdict=" + verdict() + ", speedGainPercent=" + speedGainPercent()
                + ", sizeGainPercent=" + sizeGainPercent() + ", cpuGainPercent=" + cpuGainPercent() + ", current=" + current
                + ", currentAt=" + currentAt() + "]";
    }
}
