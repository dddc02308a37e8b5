package io.qatwatch.collector.compression;

import java.time.Instant;
import java.util.List;

/**
 * One database's backups of one kind to one kind of target, with one encryption, compared across the compression
 * methods they were taken with (what {@code GET /api/v1/compression} answers per row, without host and instance).
 *
 * @param tde          the database's TDE state as the instance reports it now (msdb keeps none per backup); null unknown
 * @param algorithms   each method's statistics, the baseline first, with its judgement against the baseline (null for it)
 * @param baseline     MS_XPRESS when it was used, else the method with the most backups
 * @param alternative  the method the row's verdict is about: the best judged; null with SINGLE_ALGORITHM
 * @param current      the method of the newest backup that was not copy-only (what the jobs use); null when all were
 * @param currentAt    that backup's finish; null with it
 * @param cpuGainPercent the alternative's CPU-per-GB gain over the baseline; null when CPU was not observed on enough
 *                     backups of both (the verdict then rests on time and size alone)
 */
public record Comparison(String database, BackupKind kind, String target, Boolean tde, boolean backupEncrypted,
                         List<Entry> algorithms, Method baseline, Method alternative, Verdict verdict,
                         Double speedGainPercent, Double sizeGainPercent, Double cpuGainPercent, Method current,
                         Instant currentAt) {

    public Comparison {
        algorithms = List.copyOf(algorithms);
    }

    /** One method of the row and, unless it is the baseline, its judgement against it. */
    public record Entry(AlgorithmStats stats, Judgement judgement) {
    }

    /** The statistics of {@code method} in this row, if it was used. */
    public java.util.Optional<AlgorithmStats> stats(Method method) {
        return algorithms.stream().map(Entry::stats).filter(s -> s.method().equals(method)).findFirst();
    }
}
