package io.qatwatch.collector.analysis;

import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.UnaryOperator;

/**
 * An instance's digest ({@link BackupDigest}) as the alert stage holds it: each backup once, in the keyed form the
 * analysis reads ({@link DatabaseBackup}: database, type, times, sizes, algorithm, target), and beside it in columns
 * the rest of what {@code InstanceRefresh#canonical} keeps: its {@code backup_set_id}, its flags, which of the digest's
 * distinct sets of other strings (guid, encryption, device, family: mostly one per database) it has, and its number of
 * media families (backup-url-size-ceiling's URLs; a column only in a digest where some backup has one). A
 * {@link BackupRecord} is made when one is read, equal to the
 * record packed (the fields the canonical form drops, LSNs and CPU, are null in both). Immutable.
 * The rules that look for a few of an instance's backups every minute ask {@link #only} for them, so an instance with
 * none makes no record.
 */
public final class PackedDigest extends AbstractList<BackupRecord> implements RandomAccess {

    /** A backup that names an encryptor, or is encrypted with TRIPLE_DES_3KEY. */
    public static final int ENCRYPTION = 1;
    /** A full (type D) to URL whose size is not an estimate. */
    public static final int URL_FULL = 2;
    /** Not a log backup, its size not an estimate, compressed with MS_XPRESS. */
    public static final int MS_XPRESS = 4;
    /** Not a log backup, its size not an estimate, compressed with QAT_DEFLATE. */
    public static final int QAT_DEFLATE = 8;

    private static final int TIME_ZONE_KNOWN = 16;
    private static final int HAS_CHECKSUMS = 32;
    private static final int SNAPSHOT_TRUE = 64;
    private static final int SNAPSHOT_FALSE = 128;

    /** The places in a set of {@link #strings}, the strings of a backup {@link DatabaseBackup} does not hold. */
    private static final int GUID = 0;
    private static final int KEY_ALGORITHM = 1;
    private static final int THUMBPRINT = 2;
    private static final int ENCRYPTOR_TYPE = 3;
    private static final int DEVICE_TYPE = 4;
    private static final int FAMILY_GUID = 5;
    private static final int MORE = 6;

    /** {@link #bits}: the flags in the low byte, the backup's set of {@link #strings} above. */
    private static final int FLAG_BITS = 8;
    private static final int FLAG_MASK = (1 << FLAG_BITS) - 1;

    /** {@link #families}' value for a backup whose number of media families is not known. */
    private static final int NO_FAMILIES = Integer.MIN_VALUE;

    static final PackedDigest EMPTY = new PackedDigest(List.of(), new long[0], new int[0], new String[0], null);

    private final List<DatabaseBackup> keyed;
    private final long[] backupSetIds;
    private final int[] bits;
    /** The distinct sets of strings, {@link #MORE} each. */
    private final String[] strings;
    /** Each backup's {@code media_family_count}, {@link #NO_FAMILIES} when unknown; null when no backup has one. */
    private final int[] families;

    private PackedDigest(List<DatabaseBackup> keyed, long[] backupSetIds, int[] bits, String[] strings, int[] families) {
        this.keyed = keyed;
        this.backupSetIds = backupSetIds;
        this.bits = bits;
        this.strings = strings;
        this.families = families;
    }

    /** {@code digest} (in store order, its strings shared) packed, each backup keyed as {@code scope}'s {@code ids} key it. */
    static PackedDigest of(String scope, List<BackupRecord> digest, DatabaseIdentities ids) {
        return of(scope, digest, ids, UnaryOperator.identity());
    }

    /** As {@link #of(String, List, DatabaseIdentities)}, each keyed form held as {@code same} gives it (an equal one). */
    static PackedDigest of(String scope, List<BackupRecord> digest, DatabaseIdentities ids, UnaryOperator<DatabaseBackup> same) {
        return of(digest, keyed(scope, digest, ids, same));
    }

    /** Each of {@code backups} keyed as {@code scope}'s {@code ids} key it, held as {@code same} gives it: what {@link #with} takes. */
    static List<DatabaseBackup> keyed(String scope, List<BackupRecord> backups, DatabaseIdentities ids,
                                      UnaryOperator<DatabaseBackup> same) {
        List<DatabaseBackup> keyed = new ArrayList<>(backups.size());
        for (BackupRecord b : backups) {
            keyed.add(same.apply(FleetAnalysis.toBackup(scope, b, ids)));
        }
        return keyed;
    }

    /** {@code digest} packed with each backup's keyed form ({@code keyed}, the same order). */
    private static PackedDigest of(List<BackupRecord> digest, List<DatabaseBackup> keyed) {
        int n = digest.size();
        if (n == 0) {
            return EMPTY;
        }
        long[] ids = new long[n];
        int[] bits = new int[n];
        int[] families = null;
        StringSets sets = new StringSets();
        for (int k = 0; k < n; k++) {
            BackupRecord b = digest.get(k);
            ids[k] = b.backupSetId();
            if (b.mediaFamilyCount() != null) {
                if (families == null) {
                    families = new int[n];
                    Arrays.fill(families, NO_FAMILIES);
                }
                families[k] = b.mediaFamilyCount();
            }
            String[] more = new String[MORE];
            more[GUID] = b.databaseGuid();
            more[KEY_ALGORITHM] = b.keyAlgorithm();
            more[THUMBPRINT] = b.encryptorThumbprint();
            more[ENCRYPTOR_TYPE] = b.encryptorType();
            more[DEVICE_TYPE] = b.deviceType();
            more[FAMILY_GUID] = b.familyGuid();
            bits[k] = flags(b) | sets.of(more) << FLAG_BITS;
        }
        return new PackedDigest(List.copyOf(keyed), ids, bits, sets.strings(), families);
    }

    /**
     * Writes this digest for the instance's persisted summary (format 5) as it is held: the sets of strings, then each
     * backup's {@code backup_set_id}, flags and set, number of media families and keyed form. A keyed form that is one of
     * {@code open} (the open night's backups, which {@link KeptHistory#same} shares it with) is written as its place
     * there, so {@link #read} shares it again without comparing it with each of them.
     */
    void write(SummaryOutput out, List<DatabaseBackup> open) {
        int n = size();
        out.writeCount(n);
        if (n == 0) {
            return;
        }
        out.writeCount(strings.length / MORE);
        for (String s : strings) {
            out.writeString(s);
        }
        out.writeBoolean(families != null);
        for (int k = 0; k < n; k++) {
            out.writeLong(backupSetIds[k]);
            out.writeCount(bits[k]);
            if (families != null) {
                out.writeInt(families[k]);
            }
            DatabaseBackup d = keyed.get(k);
            int at = placeIn(open, d);
            out.writeCount(at + 1);
            if (at < 0) {
                KeptHistory.writeBackup(out, d);
            }
        }
    }

    /** Where {@code d} itself (not an equal one) is in {@code open}; -1 when it is not. */
    private static int placeIn(List<DatabaseBackup> open, DatabaseBackup d) {
        for (int k = 0; k < open.size(); k++) {
            if (open.get(k) == d) {
                return k;
            }
        }
        return -1;
    }

    /**
     * What {@link #write} wrote, with the same {@code open} backups; a keyed form written whole is held as {@code same}
     * gives it, as {@link #of} holds it. Throws {@link IllegalArgumentException} on a body that names a set of strings
     * or an open backup it does not hold.
     */
    static PackedDigest read(SummaryInput in, List<DatabaseBackup> open, UnaryOperator<DatabaseBackup> same) {
        int n = in.readSize();
        if (n == 0) {
            return EMPTY;
        }
        String[] strings = new String[in.readSize() * MORE];
        for (int s = 0; s < strings.length; s++) {
            strings[s] = in.readString();
        }
        int[] families = in.readBoolean() ? new int[n] : null;
        long[] ids = new long[n];
        int[] bits = new int[n];
        DatabaseBackup[] keyed = new DatabaseBackup[n];
        for (int k = 0; k < n; k++) {
            ids[k] = in.readLong();
            long b = in.readCount();
            if (b > Integer.MAX_VALUE || (b >>> FLAG_BITS) * MORE >= strings.length) {
                throw new IllegalArgumentException("summary body's digest names set of strings " + (b >>> FLAG_BITS)
                        + " of " + strings.length / MORE);
            }
            bits[k] = (int) b;
            if (families != null) {
                families[k] = in.readInt();
            }
            long at = in.readCount();
            if (at > open.size()) {
                throw new IllegalArgumentException("summary body's digest names open backup " + (at - 1) + " of " + open.size());
            }
            keyed[k] = at == 0 ? same.apply(KeptHistory.readBackup(in)) : open.get((int) at - 1);
        }
        return new PackedDigest(List.of(keyed), ids, bits, strings, families);
    }

    /** The distinct sets of strings of the backups packed, each given a number once. */
    private static final class StringSets {
        private final Map<List<String>, Integer> numbers = new HashMap<>();
        private final List<String> strings = new ArrayList<>();

        int of(String[] more) {
            List<String> set = Arrays.asList(more);
            Integer n = numbers.get(set);
            if (n == null) {
                n = numbers.size();
                numbers.put(set, n);
                strings.addAll(set);
            }
            return n;
        }

        String[] strings() {
            return strings.toArray(String[]::new);
        }
    }

    private static int flags(BackupRecord b) {
        int f = 0;
        if (b.encryptorThumbprint() != null || "TRIPLE_DES_3KEY".equalsIgnoreCase(b.keyAlgorithm())) {
            f |= ENCRYPTION;
        }
        if ("D".equals(b.type()) && !b.sizeIsEstimate() && "URL".equalsIgnoreCase(b.target())) {
            f |= URL_FULL;
        }
        if (!"L".equals(b.type()) && !b.sizeIsEstimate() && "MS_XPRESS".equalsIgnoreCase(b.compressionAlgorithm())) {
            f |= MS_XPRESS;
        }
        if (!"L".equals(b.type()) && !b.sizeIsEstimate() && "QAT_DEFLATE".equalsIgnoreCase(b.compressionAlgorithm())) {
            f |= QAT_DEFLATE;
        }
        if (b.timeZoneKnown()) {
            f |= TIME_ZONE_KNOWN;
        }
        if (b.hasChecksums()) {
            f |= HAS_CHECKSUMS;
        }
        if (b.snapshot() != null) {
            f |= b.snapshot() ? SNAPSHOT_TRUE : SNAPSHOT_FALSE;
        }
        return f;
    }

    /**
     * Of {@code backups}, those that may be of a kind {@code flags} names ({@link #ENCRYPTION}, {@link #URL_FULL},
     * {@link #MS_XPRESS}, {@link #QAT_DEFLATE}, or-ed): from a packed digest only those, made into records; any other
     * list whole. The reader still applies its own test to each.
     */
    public static List<BackupRecord> only(List<BackupRecord> backups, int flags) {
        if (!(backups instanceof PackedDigest p)) {
            return backups;
        }
        List<BackupRecord> out = null;
        for (int k = 0; k < p.bits.length; k++) {
            if ((p.bits[k] & FLAG_MASK & flags) != 0) {
                if (out == null) {
                    out = new ArrayList<>();
                }
                out.add(p.get(k));
            }
        }
        return out == null ? List.of() : out;
    }

    @Override
    public BackupRecord get(int k) {
        DatabaseBackup d = keyed.get(k);
        int f = bits[k];
        int at = (f >>> FLAG_BITS) * MORE;
        return new BackupRecord(backupSetIds[k], d.database(), strings[at + GUID], d.type(), d.copyOnly(), d.startedAt(),
                d.finishedAt(), (f & TIME_ZONE_KNOWN) != 0, d.sizeBytes(), d.compressedSizeBytes(), d.compressionAlgorithm(),
                (f & HAS_CHECKSUMS) != 0, strings[at + KEY_ALGORITHM], strings[at + THUMBPRINT], strings[at + ENCRYPTOR_TYPE],
                strings[at + DEVICE_TYPE], d.target(), strings[at + FAMILY_GUID],
                (f & SNAPSHOT_TRUE) != 0 ? Boolean.TRUE : (f & SNAPSHOT_FALSE) != 0 ? Boolean.FALSE : null, families(k));
    }

    private Integer families(int k) {
        return families == null || families[k] == NO_FAMILIES ? null : families[k];
    }

    @Override
    public int size() {
        return backupSetIds.length;
    }

    /** How many distinct sets of the strings {@link DatabaseBackup} does not hold it keeps. */
    int stringSets() {
        return strings.length / MORE;
    }

    /** Each backup's keyed form, in digest order. */
    List<DatabaseBackup> keyed() {
        return keyed;
    }

    /** The {@code backup_set_id} of the backup at {@code k}. */
    long backupSetId(int k) {
        return backupSetIds[k];
    }

    /**
     * This digest with {@code added} (its strings shared, each with its keyed form in {@code addedKeyed}) in store order,
     * as {@link BackupDigest#with} places them: a backup already here is not added twice, the others are placed after
     * every backup that sorts before or equal to them. Makes no record of the backups it holds.
     */
    PackedDigest with(List<BackupRecord> added, List<DatabaseBackup> addedKeyed) {
        int n = size();
        List<Integer> order = new ArrayList<>(n + added.size());
        for (int k = 0; k < n; k++) {
            order.add(k);
        }
        List<BackupRecord> newRecords = new ArrayList<>();
        List<DatabaseBackup> newKeyed = new ArrayList<>();
        for (int a = 0; a < added.size(); a++) {
            BackupRecord b = added.get(a);
            if (holds(order, newRecords, b.backupSetId())) {
                continue;
            }
            int at = order.size();
            while (at > 0 && compare(order.get(at - 1), newRecords, newKeyed, b) > 0) {
                at--;
            }
            order.add(at, -1 - newRecords.size());
            newRecords.add(b);
            newKeyed.add(addedKeyed.get(a));
        }
        if (newRecords.isEmpty()) {
            return this;
        }
        return select(order, newRecords, newKeyed);
    }

    /**
     * The digest of this digest as of {@code now} ({@link BackupDigest#of}): a subset of it, each backup it keeps with
     * its keyed form kept. Makes a record of each backup for the while it works.
     */
    PackedDigest digested(AnalysisConfig config, Instant now) {
        List<BackupRecord> all = new ArrayList<>(this);
        List<BackupRecord> kept = BackupDigest.of(all, config, now);
        if (kept.size() == all.size()) {
            return this;
        }
        List<Integer> at = new ArrayList<>(kept.size());
        int k = 0;
        for (BackupRecord b : kept) {
            while (all.get(k) != b) {
                k++;
            }
            at.add(k++);
        }
        return select(at, List.of(), List.of());
    }

    /**
     * Position {@code k} of this digest when not negative, else {@code added}'s {@code -1 - k}. The sets of strings are
     * numbered again when {@code added} is empty (the digest cut, now and then), else this digest's are kept and the
     * added backups' looked up in them (the digest grown, every minute: no map made, sets it no longer uses kept until
     * the next cut).
     */
    private PackedDigest select(List<Integer> order, List<BackupRecord> added, List<DatabaseBackup> addedKeyed) {
        int n = order.size();
        if (n == 0) {
            return EMPTY;
        }
        PackedDigest extra = added.isEmpty() ? EMPTY : of(added, addedKeyed);
        StringSets sets = added.isEmpty() ? new StringSets() : null;
        String[] table = strings;
        int[] extraSet = new int[extra.size()];
        for (int a = 0; a < extraSet.length; a++) {
            int set = (extra.bits[a] >>> FLAG_BITS) * MORE;
            int found = find(table, extra.strings, set);
            if (found < 0) {
                found = table.length / MORE;
                table = Arrays.copyOf(table, table.length + MORE);
                System.arraycopy(extra.strings, set, table, table.length - MORE, MORE);
            }
            extraSet[a] = found;
        }
        DatabaseBackup[] keyedOut = new DatabaseBackup[n];
        long[] ids = new long[n];
        int[] bitsOut = new int[n];
        int[] familiesOut = null;
        for (int k = 0; k < n; k++) {
            int from = order.get(k);
            PackedDigest source = from >= 0 ? this : extra;
            int at = from >= 0 ? from : -1 - from;
            keyedOut[k] = source.keyed.get(at);
            ids[k] = source.backupSetIds[at];
            if (source.families != null && source.families[at] != NO_FAMILIES) {
                if (familiesOut == null) {
                    familiesOut = new int[n];
                    Arrays.fill(familiesOut, NO_FAMILIES);
                }
                familiesOut[k] = source.families[at];
            }
            int set = from >= 0 ? bits[at] >>> FLAG_BITS : extraSet[at];
            if (sets != null) {
                set = sets.of(Arrays.copyOfRange(strings, set * MORE, set * MORE + MORE));
            }
            bitsOut[k] = source.bits[at] & FLAG_MASK | set << FLAG_BITS;
        }
        return new PackedDigest(List.of(keyedOut), ids, bitsOut, sets != null ? sets.strings() : table, familiesOut);
    }

    /** The number of the set in {@code table} equal to {@code strings}' at {@code from}; -1 when none is. */
    private static int find(String[] table, String[] strings, int from) {
        for (int set = 0; set < table.length; set += MORE) {
            if (Arrays.equals(table, set, set + MORE, strings, from, from + MORE)) {
                return set / MORE;
            }
        }
        return -1;
    }

    private boolean holds(List<Integer> order, List<BackupRecord> added, long backupSetId) {
        for (int k : order) {
            if ((k >= 0 ? backupSetIds[k] : added.get(-1 - k).backupSetId()) == backupSetId) {
                return true;
            }
        }
        return false;
    }

    /** {@link BackupDigest#ORDER} between position {@code k} and {@code b}. */
    private int compare(int k, List<BackupRecord> added, List<DatabaseBackup> addedKeyed, BackupRecord b) {
        Instant start = k >= 0 ? keyed.get(k).startedAt() : addedKeyed.get(-1 - k).startedAt();
        long id = k >= 0 ? backupSetIds[k] : added.get(-1 - k).backupSetId();
        int c = start.compareTo(b.startedAt());
        return c != 0 ? c : Long.compare(id, b.backupSetId());
    }
}
