package io.qatwatch.collector.store;

import java.math.BigInteger;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes the body of an instance's persisted summary (issue 33): variable-length integers, and each distinct string
 * once (later uses name it by number), so a body holds the numbers the alert stage keeps and little else. Explicit on
 * purpose, never Java object serialisation: a summary outlives the code that wrote it, and {@link SummaryInput} reads
 * exactly what this wrote, in the same order, after checking the CRC-32 that ends the body.
 */
public final class SummaryOutput {

    /** A buffer kept per thread between bodies (at most {@link #KEPT_BYTES}): a writer that grew one to an instance's
     * size from 512 bytes by doubling allocated twice the body again each time, every instance every morning. */
    private static final ThreadLocal<byte[]> SCRATCH = new ThreadLocal<>();
    private static final int FIRST_BYTES = 512;
    static final int KEPT_BYTES = 1 << 20;

    /** The thread's kept buffer while this body is written (taken, so a second body on the thread gets its own). */
    private byte[] buf;
    private int size;
    private final Map<String, Integer> strings = new HashMap<>();
    /** Instants are written as seconds from this one (a summary's are mostly within its lookback period of it). */
    private final long baseSeconds;

    /** A body whose instants are written from {@code base} (which it starts with). */
    public SummaryOutput(Instant base) {
        byte[] kept = SCRATCH.get();
        SCRATCH.remove();
        this.buf = kept != null ? kept : new byte[FIRST_BYTES];
        this.baseSeconds = base.getEpochSecond();
        writeLong(baseSeconds);
    }

    /** An unsigned number, seven bits a byte. */
    public void writeCount(long v) {
        while ((v & ~0x7FL) != 0) {
            put((byte) (v & 0x7F | 0x80));
            v >>>= 7;
        }
        put((byte) v);
    }

    /** A signed number, small magnitudes in few bytes (zigzag). */
    public void writeLong(long v) {
        writeCount(v << 1 ^ v >> 63);
    }

    public void writeInt(int v) {
        writeLong(v);
    }

    public void writeBoolean(boolean v) {
        put((byte) (v ? 1 : 0));
    }

    public void writeDouble(double v) {
        long bits = Double.doubleToRawLongBits(v);
        for (int i = 0; i < 8; i++) {
            put((byte) (bits >>> 8 * i));
        }
    }

    /** A string or null: 0 null, 1 new (its UTF-8 bytes follow), else the number of an earlier one plus 2. */
    public void writeString(String s) {
        if (s == null) {
            writeCount(0);
            return;
        }
        Integer seen = strings.get(s);
        if (seen != null) {
            writeCount(seen + 2L);
            return;
        }
        strings.put(s, strings.size());
        writeCount(1);
        byte[] utf8 = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        writeCount(utf8.length);
        append(utf8);
    }

    /**
     * An instant or null, to the nanosecond ({@link Instant#MIN} and {@link Instant#MAX} included): 0 for null, else its
     * seconds from the base (zigzag) plus one, then its nanoseconds.
     */
    public void writeInstant(Instant t) {
        if (t == null) {
            writeCount(0);
            return;
        }
        long from = t.getEpochSecond() - baseSeconds;
        writeCount((from << 1 ^ from >> 63) + 1);
        writeCount(t.getNano());
    }

    public void writeNullableLong(Long v) {
        writeBoolean(v != null);
        if (v != null) {
            writeLong(v);
        }
    }

    /** An LSN (a decimal(25,0) in msdb) or null. */
    public void writeBigInteger(BigInteger v) {
        if (v == null) {
            writeCount(0);
            return;
        }
        byte[] bytes = v.toByteArray();
        writeCount(bytes.length + 1L);
        append(bytes);
    }

    /**
     * Bytes as they are, after their count: what the stage already holds packed ({@code PackedRows}) goes into the body
     * and comes back without being unpacked and packed again.
     */
    public void writeBytes(byte[] bytes) {
        writeCount(bytes.length);
        append(bytes);
    }

    /** Nullable three-state flag: 0 null, 1 false, 2 true. */
    public void writeFlag(Boolean v) {
        put((byte) (v == null ? 0 : v ? 2 : 1));
    }

    private void put(byte b) {
        room(1);
        buf[size++] = b;
    }

    private void append(byte[] bytes) {
        room(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
    }

    /** Grows the buffer, doubling at least, so that {@code more} bytes fit after what is written. */
    private void room(int more) {
        if (size + more > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(2 * buf.length, size + more));
        }
    }

    /**
     * What was written, then the CRC-32 of it (four bytes), so that {@link SummaryInput} tells a damaged body. The body
     * is done: its buffer goes back to the thread for the next one, and nothing more may be written to this one.
     */
    public byte[] toByteArray() {
        if (buf == null) {
            throw new IllegalStateException("a summary body is read out once");
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(buf, 0, size);
        long sum = crc.getValue();
        byte[] out = java.util.Arrays.copyOf(buf, size + 4);
        for (int i = 0; i < 4; i++) {
            out[size + i] = (byte) (sum >>> 8 * i);
        }
        if (buf.length <= KEPT_BYTES) {
            SCRATCH.set(buf);
        }
        buf = null;
        return out;
    }
}
