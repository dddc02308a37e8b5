package io.qatwatch.collector.compression;

import io.qatwatch.collector.store.SummaryInput;

/**
 * Rows of numbers held in as few bytes as they need (issue 33, the heap per instance). Each field is first made a
 * small number: its change from the row before (the first row as it is), or for a field that grows steadily, such as a
 * nightly start, the change in that change, or for a field whose rows are unrelated (one night's databases) the number
 * as it is. Then field by field: the first row's number, and the others divided by their greatest common divisor
 * (durations in whole seconds, starts a whole number of nights apart) and written either as variable-length integers
 * or, where that is smaller, each as its distance from the field's least in the fewest bits that hold the largest
 * (sizes of similar magnitude, a field that never changes in no bits at all). Exact for every long, whatever the
 * numbers. Read whole, not by row; the number of rows is the bytes' own.
 *
 * <p>The bytes: the number of rows (none: no bytes at all); per field a header ({@code bits << 2}, 2 when divided, 1
 * when in bits), the first row's number (zigzag), and with more rows the divisor when divided, then either the least
 * (zigzag) and the others' distances from it in {@code bits} bits each, lowest bit first, or the others (zigzag).
 */
public final class PackedRows {

    private static final byte[] EMPTY = new byte[0];
    private static final int DIVIDED = 2;
    private static final int IN_BITS = 1;

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
        long[] written = new long[rows * width];
        long[] before = new long[width];
        long[] step = new long[width];
        for (int r = 0; r < rows; r++) {
            for (int f = 0; f < width; f++) {
                written[r * width + f] = written(values, r, f, width, steady, plain, before, step);
            }
        }
        // the field's plan (divisor, least, bits, whether in bits) worked out once to count the bytes, then written
        long[] divisor = new long[width];
        long[] least = new long[width];
        int[] bits = new int[width];
        boolean[] inBits = new boolean[width];
        long bytes = length(rows);
        for (int f = 0; f < width; f++) {
            bytes += plan(written, rows, width, f, divisor, least, bits, inBits);
        }
        byte[] out = new byte[Math.toIntExact(bytes)];
        int at = writeCount(out, 0, rows);
        for (int f = 0; f < width; f++) {
            long g = divisor[f];
            at = writeCount(out, at, (long) bits[f] << 2 | (g > 1 ? DIVIDED : 0) | (inBits[f] ? IN_BITS : 0));
            at = writeCount(out, at, zigzag(written[f]));
            if (rows == 1) {
                continue;
            }
            if (g > 1) {
                at = writeCount(out, at, g);
            }
            if (inBits[f]) {
                at = writeCount(out, at, zigzag(least[f]));
                Bits w = new Bits(out, at);
                for (int r = 1; r < rows; r++) {
                    w.write((g == 1 ? written[r * width + f] : written[r * width + f] / g) - least[f], bits[f]);
                }
                at = w.end();
            } else {
                for (int r = 1; r < rows; r++) {
                    at = writeCount(out, at, zigzag(g == 1 ? written[r * width + f] : written[r * width + f] / g));
                }
            }
        }
        return out;
    }

    /**
     * Works out how field {@code f} is written (its divisor, least and bits, and whether in bits) into the arrays at
     * {@code f}; returns the bytes it takes.
     */
    private static long plan(long[] written, int rows, int width, int f, long[] divisor, long[] least, int[] bits,
                             boolean[] inBits) {
        long g = 0;
        for (int r = 1; r < rows; r++) {
            long w = written[r * width + f];
            if (w == Long.MIN_VALUE) {
                // its magnitude is no long: left undivided
                g = 1;
                break;
            }
            g = gcd(g, Math.abs(w));
            if (g == 1) {
                break;
            }
        }
        g = Math.max(g, 1);
        long asCounts = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int r = 1; r < rows; r++) {
            long q = g == 1 ? written[r * width + f] : written[r * width + f] / g;
            asCounts += length(zigzag(q));
            min = Math.min(min, q);
            max = Math.max(max, q);
        }
        int b = rows == 1 ? 0 : 64 - Long.numberOfLeadingZeros(max - min);
        long asBits = rows == 1 ? 0 : length(zigzag(min)) + bitBytes(rows - 1, b);
        divisor[f] = g;
        least[f] = rows == 1 ? 0 : min;
        bits[f] = b;
        inBits[f] = asBits < asCounts;
        long head = length((long) b << 2 | 3) + length(zigzag(written[f])) + (rows > 1 && g > 1 ? length(g) : 0);
        return head + Math.min(asBits, asCounts);
    }

    /** Of two numbers not negative, by shifts and subtractions (Stein's): a division a number made packing slow. */
    private static long gcd(long a, long b) {
        if (a == 0 || b == 0) {
            return a | b;
        }
        int twos = Long.numberOfTrailingZeros(a | b);
        a >>>= Long.numberOfTrailingZeros(a);
        do {
            b >>>= Long.numberOfTrailingZeros(b);
            if (a > b) {
                long t = a;
                a = b;
                b = t;
            }
            b -= a;
        } while (b != 0);
        return a << twos;
    }

    /**
     * The number {@link #pack} keeps for field {@code f} of row {@code r} before dividing it; moves {@code before} and
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
        return written;
    }

    private static long zigzag(long v) {
        return v << 1 ^ v >> 63;
    }

    private static long unzigzag(long v) {
        return v >>> 1 ^ -(v & 1);
    }

    /** Bytes {@link #writeCount} takes for {@code v}: seven bits a byte. */
    private static int length(long v) {
        return v == 0 ? 1 : (63 - Long.numberOfLeadingZeros(v)) / 7 + 1;
    }

    /** Bytes that {@code n} numbers of {@code bits} bits take. */
    private static long bitBytes(long n, int bits) {
        return (n * bits + 7) / 8;
    }

    /** How many rows {@code packed} holds. */
    public static int rows(byte[] packed) {
        return packed.length == 0 ? 0 : (int) new Reader(packed).count();
    }

    /** What {@link #pack} packed ({@code width} numbers a row), into {@code into} (room for them all). */
    public static void unpack(byte[] packed, int width, int steady, int plain, long[] into) {
        if (packed.length == 0) {
            return;
        }
        Reader in = new Reader(packed);
        int rows = (int) in.count();
        // each field's kept numbers into place, then undone row by row
        for (int f = 0; f < width; f++) {
            long head = in.count();
            into[f] = unzigzag(in.count());
            if (rows == 1) {
                continue;
            }
            long g = (head & DIVIDED) != 0 ? in.count() : 1;
            if ((head & IN_BITS) != 0) {
                long least = unzigzag(in.count());
                int bits = (int) (head >>> 2);
                Bits b = new Bits(packed, in.at);
                for (int r = 1; r < rows; r++) {
                    into[r * width + f] = (least + b.read(bits)) * g;
                }
                in.at = b.end();
            } else {
                for (int r = 1; r < rows; r++) {
                    into[r * width + f] = unzigzag(in.count()) * g;
                }
            }
        }
        long[] before = new long[width];
        long[] step = new long[width];
        for (int r = 0; r < rows; r++) {
            for (int f = 0; f < width; f++) {
                int p = r * width + f;
                long change = into[p];
                if (r > 0 && (steady >>> f & 1) != 0) {
                    change += step[f];
                    step[f] = change;
                }
                before[f] = (plain >>> f & 1) != 0 ? change : before[f] + change;
                into[p] = before[f];
            }
        }
    }

    /**
     * Whether {@code packed} is rows of {@code width} numbers as {@link #pack} writes them, each complete and nothing
     * after: what a persisted summary hands back is checked so, without unpacking it, before {@link #unpack} is ever
     * asked to read it.
     */
    public static boolean holds(byte[] packed, int width) {
        if (packed.length == 0) {
            return true;
        }
        Reader in = new Reader(packed);
        long rows = in.checkedCount();
        if (rows <= 0 || rows > Integer.MAX_VALUE) {
            return false;
        }
        for (int f = 0; f < width; f++) {
            long head = in.checkedCount();
            if (head < 0 || head >>> 2 > 64 || in.checkedCount() < 0) {
                return false;
            }
            if (rows == 1) {
                continue;
            }
            if ((head & DIVIDED) != 0 && in.checkedCount() < 0) {
                return false;
            }
            if ((head & IN_BITS) != 0) {
                if (in.checkedCount() < 0) {
                    return false;
                }
                long end = in.at + bitBytes(rows - 1, (int) (head >>> 2));
                if (end > packed.length) {
                    return false;
                }
                in.at = (int) end;
            } else {
                for (long r = 1; r < rows; r++) {
                    if (in.checkedCount() < 0) {
                        return false;
                    }
                }
            }
        }
        return in.at == packed.length;
    }

    /**
     * A persisted summary's packed rows ({@code width} numbers a row, at most {@code most} rows), read and checked:
     * {@code what} names them in the message when they are not whole.
     */
    public static byte[] read(SummaryInput in, int width, int most, String what) {
        byte[] packed = in.readBytes();
        if (!holds(packed, width) || rows(packed) > most) {
            throw new IllegalArgumentException("summary body's " + what + " are not " + width
                    + "-number rows as packed, at most " + most);
        }
        return packed;
    }

    /** The first row's first number, without reading the rest (a packed series' oldest start, checked every minute). */
    public static long first(byte[] packed) {
        Reader in = new Reader(packed);
        in.count();
        in.count();
        return unzigzag(in.count());
    }

    /** Reads the variable-length numbers one after the other. */
    private static final class Reader {
        private final byte[] packed;
        private int at;

        Reader(byte[] packed) {
            this.packed = packed;
        }

        long count() {
            long v = 0;
            int shift = 0;
            byte b;
            do {
                b = packed[at++];
                v |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            return v;
        }

        /** The next number, -1 when the bytes end before it does or it takes more than ten bytes. */
        long checkedCount() {
            long v = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                if (at >= packed.length) {
                    return -1;
                }
                byte b = packed[at++];
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    // read as unsigned: only a count of rows or a header is compared with a bound
                    return v < 0 ? Long.MAX_VALUE : v;
                }
            }
            return -1;
        }
    }

    /** Numbers of a few bits each, lowest bit first, from a byte on. */
    private static final class Bits {
        private final byte[] bytes;
        private int at;
        /** Bits of {@code bytes[at]} already taken. */
        private int used;

        Bits(byte[] bytes, int at) {
            this.bytes = bytes;
            this.at = at;
        }

        void write(long v, int bits) {
            while (bits > 0) {
                int take = Math.min(8 - used, bits);
                bytes[at] |= (byte) ((v & (1L << take) - 1) << used);
                v >>>= take;
                bits -= take;
                used += take;
                if (used == 8) {
                    at++;
                    used = 0;
                }
            }
        }

        long read(int bits) {
            long v = 0;
            int got = 0;
            while (got < bits) {
                int take = Math.min(8 - used, bits - got);
                v |= ((long) (bytes[at] & 0xFF) >>> used & (1L << take) - 1) << got;
                got += take;
                used += take;
                if (used == 8) {
                    at++;
                    used = 0;
                }
            }
            return v;
        }

        /** Where the next byte after these numbers is. */
        int end() {
            return used == 0 ? at : at + 1;
        }
    }

    private static int writeCount(byte[] out, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            out[at++] = (byte) (v & 0x7F | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }
}
