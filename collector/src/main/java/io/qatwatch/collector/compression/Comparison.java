package io.qatwatch.collector.compression;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One database's backups of one kind to one kind of target, with one encryption, compared across the compression
 * methods they were taken with (what {@code GET /api/v1/compression} answers per row, without host and instance).
 * A record's parts, equality, hash and printing, held in fewer objects: a row of one method (most rows) holds its
 * statistics without a list and an entry around them, and the newest backup's finish as numbers (the alert stage holds
 * every instance's comparisons between evaluations).
 */
public final class Comparison {

    private final String database;
    private final BackupKind kind;
    private final String target;
    private final Boolean tde;
    private final boolean backupEncrypted;
    /** The one method's statistics when the row has one entry and no judgement (the baseline alone), else the entries. */
    private final Object algorithms;
    private final Method baseline;
    private final Method alternative;
    private final Verdict verdict;
    private final Double speedGainPercent;
    private final Double sizeGainPercent;
    private final Double cpuGainPercent;
    private final Method current;
    /** {@code currentAt} as epoch seconds and nanoseconds; -1 nanoseconds for none. */
    private final long currentAtSecond;
    private final int currentAtNano;

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
        this.kind = kind;
        this.target = target;
        this.tde = tde;
        this.backupEncrypted = backupEncrypted;
        List<Entry> entries = List.copyOf(algorithms);
        this.algorithms = entries.size() == 1 && entries.get(0).judgement() == null && entries.get(0).stats() != null
                ? entries.get(0).stats() : entries;
        this.baseline = baseline;
        this.alternative = alternative;
        this.verdict = verdict;
        this.speedGainPercent = speedGainPercent;
        this.sizeGainPercent = sizeGainPercent;
        this.cpuGainPercent = cpuGainPercent;
        this.current = current;
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
        return kind;
    }

    public String target() {
        return target;
    }

    public Boolean tde() {
        return tde;
    }

    public boolean backupEncrypted() {
        return backupEncrypted;
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
        return alternative;
    }

    public Verdict verdict() {
        return verdict;
    }

    public Double speedGainPercent() {
        return speedGainPercent;
    }

    public Double sizeGainPercent() {
        return sizeGainPercent;
    }

    public Double cpuGainPercent() {
        return cpuGainPercent;
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
        return o instanceof Comparison c && backupEncrypted == c.backupEncrypted && currentAtSecond == c.currentAtSecond
                && currentAtNano == c.currentAtNano && kind == c.kind && verdict == c.verdict
                && Objects.equals(database, c.database) && Objects.equals(target, c.target) && Objects.equals(tde, c.tde)
                && Objects.equals(algorithms, c.algorithms) && Objects.equals(baseline, c.baseline)
                && Objects.equals(alternative, c.alternative) && Objects.equals(speedGainPercent, c.speedGainPercent)
                && Objects.equals(sizeGainPercent, c.sizeGainPercent) && Objects.equals(cpuGainPercent, c.cpuGainPercent)
                && Objects.equals(current, c.current);
    }

    /** The hash the record gave: 31 times the parts so far plus the next part's hash. */
    @Override
    public int hashCode() {
        int h = Objects.hashCode(database);
        h = 31 * h + Objects.hashCode(kind);
        h = 31 * h + Objects.hashCode(target);
        h = 31 * h + Objects.hashCode(tde);
        h = 31 * h + Boolean.hashCode(backupEncrypted);
        h = 31 * h + algorithms().hashCode();
        h = 31 * h + Objects.hashCode(baseline);
        h = 31 * h + Objects.hashCode(alternative);
        h = 31 * h + Objects.hashCode(verdict);
        h = 31 * h + Objects.hashCode(speedGainPercent);
        h = 31 * h + Objects.hashCode(sizeGainPercent);
        h = 31 * h + Objects.hashCode(cpuGainPercent);
        h = 31 * h + Objects.hashCode(current);
        return 31 * h + Objects.hashCode(currentAt());
    }

    /** As a record prints itself. */
    @Override
    public String toString() {
        return "Comparison[database=" + database + ", kind=" + kind + ", target=" + target + ", tde=" + tde
                + ", backupEncrypted=" + backupEncrypted + ", algorithms=" + algorithms() + ", baseline=" + baseline
                + ", alternative=" + alternative + ", verdict=" + verdict + ", speedGainPercent=" + speedGainPercent
                + ", sizeGainPercent=" + sizeGainPercent + ", cpuGainPercent=" + cpuGainPercent + ", current=" + current
                + ", currentAt=" + currentAt() + "]";
    }
}
