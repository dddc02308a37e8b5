package io.qatwatch.collector.compression;

import java.util.Arrays;

/**
 * Rows of numbers held in as few bytes as they need (issue 33, the heap per instance): each field as a variable-length
 * integer of its change from the row before (the first row as it is), or for a field that grows steadily, such as a
 * nightly start, of the change in that change, or for a field whose rows are unrelated (one night's databases), as it
 * is. A series' backups are alike, so most changes take one to four bytes where a long takes eight. Exact for every
 * long, whatever the numbers. Read whole, not by row.
 */
public final class PackedRows {

    private static final byte[] EMPTY = new byte[0];

    private PackedRows() {
    }

    /**
     * The first {@code rows} rows of {@code values} ({@code width} numbers a row), packed; {@code steady} has bit
     * {@code f} set for each field {@code f} kept as its change in change, {@code plain} for each kept as it is.
     */
    public static byte[] pack(long[] values, int rows, int width, int steady, int plain) {
        if (rows == 0) {
            return EMPTY;
        }
        // twice over the numbers, first to count the bytes: cheaper than a scratch array of ten bytes a number (the
        // most a long takes), zeroed and then copied, which was most of a restart's packing
        long[] before = new long[width];
        long[] step = new long[width];
        int bytes = 0;
        for (int r = 0; r < rows; r++) {
            for (int f = 0; f < width; f++) {
                bytes += length(written(values, r, f, width, steady, plain, before, step));
            }
        }
        byte[] out = new byte[bytes];
        Arrays.fill(before, 0);
        Arrays.fill(step, 0);
        int at = 0;
        for (int r = 0; r < rows; r++) {
            for (int f = 0; f < width; f++) {
                at = write(out, at, written(values, r, f, width, steady, plain, before, step));
            }
        }
        return out;
    }

    /**
     * The number {@link #pack} writes for field {@code f} of row {@code r}, zigzag-encoded; moves {@code before} and
     * {@code step} (each field's value and change in the row before) on to this row.
     */
    private static long written(long[] values, int r, int f, int width, int steady, int plain, long[] before, long[] step) {
        long v = values[r * width + f];
        long change = (plain >>> f & 1) != 0 ? v : v - before[f];
        long written = change;
        if (r > 0 && (steady >>> f & 1) != 0) {
            written = change - step[f];
            step[f] = change;
        }
        before[f] = v;
        return written << 1 ^ written >> 63;
    }

    /** Bytes {@link #write} takes for {@code v}: seven bits a byte. */
    private static int length(long v) {
        return v == 0 ? 1 : (63 - Long.numberOfLeadingZeros(v)) / 7 + 1;
    }

    /** What {@link #pack} packed: {@code rows} rows of {@code width} numbers, into {@code into} (room for them all). */
    public static void unpack(byte[] packed, int rows, int width, int steady, int plain, long[] into) {
        Reader in = new Reader(packed);
        long[] before = new long[width];
        long[] step = new long[width];
        for (int r = 0; r < rows; r++) {
            for (int f = 0; f < width; f++) {
                long change = in.next();
                if (r > 0 && (steady >>> f & 1) != 0) {
                    change += step[f];
                    step[f] = change;
                }
                before[f] = (plain >>> f & 1) != 0 ? change : before[f] + change;
                into[r * width + f] = before[f];
            }
        }
    }

    /**
     * Whether {@code packed} holds exactly {@code rows} rows of {@code width} numbers, each complete: what a persisted
     * summary hands back is checked so, without unpacking it, before {@link #unpack} is ever asked to read it.
     */
    public static boolean holds(byte[] packed, int rows, int width) {
        long numbers = 0;
        for (byte b : packed) {
            if (b >= 0) {
                numbers++;
            }
        }
        return numbers == (long) rows * width && (packed.length == 0 || packed[packed.length - 1] >= 0);
    }

    /** The first row's first number, without reading the rest (a packed series' oldest start, checked every minute). */
    public static long first(byte[] packed) {
        return new Reader(packed).next();
    }

    /** Reads the numbers one after the other. */
    private static final class Reader {
        private final byte[] packed;
        private int at;

        Reader(byte[] packed) {
            this.packed = packed;
        }

        long next() {
            long zigzag = 0;
            int shift = 0;
            byte b;
            do {
                b = packed[at++];
                zigzag |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            return zigzag >>> 1 ^ -(zigzag & 1);
        }
    }

    private static int write(byte[] out, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            out[at++] = (byte) (v & 0x7F | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }
}
