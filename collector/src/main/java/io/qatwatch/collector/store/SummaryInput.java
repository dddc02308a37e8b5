package io.qatwatch.collector.store;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Reads what {@link SummaryOutput} wrote, in the same order. A body whose CRC-32 fails, that ends early or names a string
 * it never held is damaged: {@link IllegalArgumentException}, and the caller rebuilds the instance from its rows. Strings go through
 * {@code canon}, so a restored fleet shares them as one read from rows does.
 */
public final class SummaryInput {

    private final byte[] buf;
    /** Where the body proper ends: its CRC-32 follows. */
    private final int end;
    private int at;
    private final List<String> strings = new ArrayList<>();
    private final UnaryOperator<String> canon;
    private final long baseSeconds;

    /** Throws {@link IllegalArgumentException} when the body's CRC-32 does not match it. */
    public SummaryInput(byte[] body, UnaryOperator<String> canon) {
        if (body.length < 4) {
            throw new IllegalArgumentException("summary body of " + body.length + " bytes");
        }
        this.buf = body;
        this.end = body.length - 4;
        this.canon = canon;
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body, 0, end);
        long sum = 0;
        for (int i = 0; i < 4; i++) {
            sum |= (body[end + i] & 0xFFL) << 8 * i;
        }
        if (sum != crc.getValue()) {
            throw new IllegalArgumentException("summary body fails its CRC-32 check");
        }
        this.baseSeconds = readLong();
    }

    private byte get() {
        if (at >= end) {
            throw new IllegalArgumentException("summary body ends early, at byte " + at);
        }
        return buf[at++];
    }

    public long readCount() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = get();
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("summary body holds a number of more than ten bytes at byte " + at);
    }

    /** A count that sizes something read next: never more than the bytes left could hold. */
    public int readSize() {
        long n = readCount();
        if (n > end - at) {
            throw new IllegalArgumentException("summary body announces " + n + " items with " + (end - at) + " bytes left");
        }
        return (int) n;
    }

    public long readLong() {
        long v = readCount();
        return v >>> 1 ^ -(v & 1);
    }

    public int readInt() {
        long v = readLong();
        if (v != (int) v) {
            throw new IllegalArgumentException("summary body holds " + v + " where an int was written");
        }
        return (int) v;
    }

    public boolean readBoolean() {
        byte b = get();
        if (b != 0 && b != 1) {
            throw new IllegalArgumentException("summary body holds " + b + " where a boolean was written");
        }
        return b == 1;
    }

    public double readDouble() {
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits |= (get() & 0xFFL) << 8 * i;
        }
        return Double.longBitsToDouble(bits);
    }

    public String readString() {
        long n = readCount();
        if (n == 0) {
            return null;
        }
        if (n == 1) {
            int length = readSize();
            String s = canon.apply(new String(buf, at, length, StandardCharsets.UTF_8));
            at += length;
            strings.add(s);
            return s;
        }
        if (n - 2 >= strings.size()) {
            throw new IllegalArgumentException("summary body names string " + (n - 2) + " of " + strings.size());
        }
        return strings.get((int) (n - 2));
    }

    public Instant readInstant() {
        long v = readCount();
        if (v == 0) {
            return null;
        }
        v--;
        long seconds = baseSeconds + (v >>> 1 ^ -(v & 1));
        long nanos = readCount();
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("summary body holds an instant out of range", e);
        }
    }

    public Long readNullableLong() {
        return readBoolean() ? readLong() : null;
    }

    public BigInteger readBigInteger() {
        int n = readSize();
        if (n == 0) {
            return null;
        }
        byte[] bytes = java.util.Arrays.copyOfRange(buf, at, at + n - 1);
        at += n - 1;
        return new BigInteger(bytes);
    }

    /** What {@link SummaryOutput#writeBytes} wrote: a copy of the bytes. */
    public byte[] readBytes() {
        int n = readSize();
        byte[] out = java.util.Arrays.copyOfRange(buf, at, at + n);
        at += n;
        return out;
    }

    public Boolean readFlag() {
        byte b = get();
        return switch (b) {
            case 0 -> null;
            case 1 -> Boolean.FALSE;
            case 2 -> Boolean.TRUE;
            default -> throw new IllegalArgumentException("summary body holds " + b + " where a flag was written");
        };
    }

    /** Throws unless every byte was read: a body longer than its format says is damaged too. */
    public void end() {
        if (at != end) {
            throw new IllegalArgumentException("summary body has " + (end - at) + " bytes after its end");
        }
    }
}
