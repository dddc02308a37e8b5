package io.qatwatch.collector.analysis;

import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.NightlyWindows;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The body of an instance's persisted summary (issue 33): what the alert stage keeps of its backups (the digest the rules
 * read, the kept nights, the compression series, the baseline fulls, the log chains), so a restart restores it instead of
 * reading every backup row. The body starts with a key of the configuration that shaped it (the instance's calendar, the
 * window, creep, baseline and compression settings): kept state made under other settings is not what a rebuild would
 * make, so a summary whose key differs is rebuilt from the rows. What it shares with the fleet (the configuration, the
 * calendar's nights, interned strings) is attached again on reading, never stored.
 */
final class InstanceSummaryCodec {

    /**
     * The body's format. Bump it whenever what {@link #write} writes changes, or a class whose fields it writes changes
     * its fields ({@code InstanceSummaryFormatTest} pins their fingerprint next to this number): a summary of another
     * format is rebuilt from the rows, never read with the wrong layout. Bump it too when what a written value means
     * changes: 2 weighs a snapshot full's size as nothing in a finished night's fulls, as a rebuild does; 3 keeps a
     * digest backup's number of media families (the URLs backup-url-size-ceiling divides the ceiling by); 4 holds the
     * kept nights' points and the compression series as the stage holds them in memory, packed ({@code PackedRows}), so a
     * restart takes the bytes as they are instead of decoding every number and packing them again; 5 holds the digest as
     * the stage holds it ({@code PackedDigest}: its sets of strings, flags and keyed forms, those of the open night by
     * their place there), after the history, so a restart neither makes a record of each backup nor keys it again, and
     * each creep fit's line and step, so a restart does not fit the nights again; 6 packs the points and the compression
     * series field by field, divided and in bits where that is smaller, the bytes counting their own rows; 7 holds each
     * compression series' statistics and newest job's finish after its backups, so a restart's first comparisons do not
     * unpack every series and sort its numbers again, no longer a creep fit's step (its line's slope and the nights'
     * spacing give it), and a kept night of the instance over its calendar's hours by its business end alone.
     */
    static final int FORMAT = 7;

    private InstanceSummaryCodec() {
    }

    /** What an instance keeps of its backups, as written and as read back. */
    record Kept(PackedDigest digest, int digestSize, Instant digestValidUntil, KeptHistory history,
                CompressionSamples compression, Map<String, BaselineFulls> fulls, Map<String, LogChain> chains) {
    }

    /** The body of {@code kept}, made under {@code configKey} ({@link #configKey}) at {@code at}. */
    static byte[] write(long configKey, Kept kept, Instant at) {
        SummaryOutput out = new SummaryOutput(at);
        out.writeLong(configKey);
        // the history first: the digest names the open night's backups it shares by their place there
        kept.history().write(out);
        kept.digest().write(out, kept.history().openBackups());
        out.writeCount(kept.digestSize());
        out.writeInstant(kept.digestValidUntil());
        kept.compression().write(out);
        out.writeCount(kept.fulls().size());
        kept.fulls().forEach((db, f) -> {
            out.writeString(db);
            f.write(out);
        });
        out.writeCount(kept.chains().size());
        kept.chains().forEach((db, c) -> {
            out.writeString(db);
            c.write(out);
        });
        return out.toByteArray();
    }

    /**
     * What {@link #write} wrote for the instance {@code scope}, or null when it was made under another configuration key.
     * Throws {@link IllegalArgumentException} (or another runtime exception) on a damaged body.
     */
    static Kept read(byte[] body, long configKey, String scope, NightlyWindows.Nights nights, AnalysisConfig config,
                     UnaryOperator<String> canon) {
        SummaryInput in = new SummaryInput(body, canon);
        if (in.readLong() != configKey) {
            return null;
        }
        KeptHistory history = KeptHistory.read(in, scope, nights, config);
        PackedDigest digest = PackedDigest.read(in, history.openBackups(), history::same);
        int digestSize = in.readSize();
        Instant digestValidUntil = in.readInstant();
        CompressionSamples compression = CompressionSamples.read(in, config.compression().minDurationSeconds());
        Map<String, BaselineFulls> fulls = new HashMap<>();
        for (int n = in.readSize(); n > 0; n--) {
            fulls.put(in.readString(), BaselineFulls.read(in, scope));
        }
        Map<String, LogChain> chains = new HashMap<>();
        for (int n = in.readSize(); n > 0; n--) {
            chains.put(in.readString(), LogChain.read(in));
        }
        in.end();
        return new Kept(digest, digestSize, digestValidUntil, history, compression, fulls, chains);
    }

    /**
     * A key of the settings that shape what an instance keeps, under its calendar {@code calendar}: the same settings give
     * the same key in any process (every part spelled out in a fixed order, never an identity hash).
     */
    static long configKey(AnalysisConfig config, BusinessCalendar calendar) {
        StringBuilder s = new StringBuilder();
        s.append(config.windows()).append('|').append(config.creep()).append('|').append(config.baselineFulls()).append('|')
                .append(config.baselineMinSeconds()).append('|').append(config.compression()).append('|');
        if (calendar != null) {
            s.append(calendar.name()).append('|').append(calendar.zone()).append('|').append(calendar.safetyMargin());
            for (DayOfWeek d : DayOfWeek.values()) {
                s.append('|').append(d).append(calendar.weeklyHours().get(d));
            }
            s.append('|').append(new TreeSet<>(calendar.holidays())).append('|');
            calendar.recurringHolidays().stream().map(Object::toString).sorted().forEach(h -> s.append(h).append(','));
        }
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(s.toString().getBytes(StandardCharsets.UTF_8));
            long key = 0;
            for (int i = 0; i < 8; i++) {
                key = key << 8 | (sha[i] & 0xFF);
            }
            return key;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
