package io.qatwatch.collector.alert;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * Backup records held column by column (instants and sizes as primitives, strings shared), about half
 * the heap of the records themselves: how the alert stage keeps each instance's {@link BackupDigest}
 * between evaluations. Reading it as a list makes each record again on access. Immutable.
 */
final class PackedBackups extends AbstractList<BackupRecord> implements RandomAccess {

    private static final byte COPY_ONLY = 1;
    private static final byte TIME_ZONE_KNOWN = 2;
    private static final byte CHECKSUMS = 4;
    private static final byte COMPRESSED_KNOWN = 8;
    /** Strings per record: name, guid, type, algorithm, key algorithm, thumbprint, encryptor type, device, target. */
    private static final int STRINGS = 9;

    private final long[] longs;
    private final int[] nanos;
    private final byte[] flags;
    private final String[] strings;

    /** {@code records} packed, each string replaced by its shared copy from {@code shared}. */
    PackedBackups(List<BackupRecord> records, Map<String, String> shared) {
        int n = records.size();
        longs = new long[5 * n];
        nanos = new int[2 * n];
        flags = new byte[n];
        strings = new String[STRINGS * n];
        for (int i = 0; i < n; i++) {
            BackupRecord b = records.get(i);
            longs[5 * i] = b.backupSetId();
            longs[5 * i + 1] = b.startedAt().getEpochSecond();
            longs[5 * i + 2] = b.finishedAt().getEpochSecond();
            longs[5 * i + 3] = b.backupSizeBytes();
            longs[5 * i + 4] = b.compressedSizeBytes() == null ? 0 : b.compressedSizeBytes();
            nanos[2 * i] = b.startedAt().getNano();
            nanos[2 * i + 1] = b.finishedAt().getNano();
            flags[i] = (byte) ((b.copyOnly() ? COPY_ONLY : 0) | (b.timeZoneKnown() ? TIME_ZONE_KNOWN : 0)
                    | (b.hasChecksums() ? CHECKSUMS : 0) | (b.compressedSizeBytes() != null ? COMPRESSED_KNOWN : 0));
            String[] s = {b.databaseName(), b.databaseGuid(), b.type(), b.compressionAlgorithm(), b.keyAlgorithm(),
                    b.encryptorThumbprint(), b.encryptorType(), b.deviceType(), b.target()};
            for (int k = 0; k < STRINGS; k++) {
                strings[STRINGS * i + k] = s[k] == null ? null : shared.computeIfAbsent(s[k], x -> x);
            }
        }
    }

    @Override
    public BackupRecord get(int i) {
        byte f = flags[i];
        int s = STRINGS * i;
        return new BackupRecord(longs[5 * i], strings[s], strings[s + 1], strings[s + 2], (f & COPY_ONLY) != 0,
                Instant.ofEpochSecond(longs[5 * i + 1], nanos[2 * i]), Instant.ofEpochSecond(longs[5 * i + 2], nanos[2 * i + 1]),
                (f & TIME_ZONE_KNOWN) != 0, longs[5 * i + 3], (f & COMPRESSED_KNOWN) != 0 ? longs[5 * i + 4] : null,
                strings[s + 3], (f & CHECKSUMS) != 0, strings[s + 4], strings[s + 5], strings[s + 6], strings[s + 7],
                strings[s + 8]);
    }

    @Override
    public int size() {
        return flags.length;
    }
}
