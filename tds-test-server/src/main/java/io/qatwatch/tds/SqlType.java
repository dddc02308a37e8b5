package io.qatwatch.tds;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SQL Server column type as it travels in TDS: its TYPE_INFO in COLMETADATA and its value in a ROW.
 * Parsed from the T-SQL spelling ({@code int}, {@code nvarchar(128)}, {@code numeric(20,0)}, ...).
 * Every type is sent in its nullable variant (INTN, BITN, FLTN, ...), as SQL Server does for expressions.
 */
public final class SqlType {

    private static final Pattern SPELLING = Pattern.compile("([a-z0-9]+)\\s*(?:\\((\\d+|max)\\s*(?:,\\s*(\\d+))?\\))?");
    /** Latin1_General_CI_AS: LCID 0x0409, flags, version 0, sort id 52 (MS-TDS 2.2.5.1.2). */
    static final byte[] COLLATION = {0x09, 0x04, (byte) 0xD0, 0x00, 0x34};
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    private static final LocalDate DATETIME_EPOCH = LocalDate.of(1900, 1, 1);

    private enum Kind { INT, BIT, FLOAT, DECIMAL, NVARCHAR, VARCHAR, CHAR, VARBINARY, GUID, DATETIME }

    private final String spelling;
    private final Kind kind;
    /** Bytes of the fixed-length value (INTN, FLTN, DECIMALN), or the maximum length in bytes of a variable one. */
    private final int length;
    private final int precision;
    private final int scale;

    private SqlType(String spelling, Kind kind, int length, int precision, int scale) {
        this.spelling = spelling;
        this.kind = kind;
        this.length = length;
        this.precision = precision;
        this.scale = scale;
    }

    /** Parses the T-SQL spelling of a type, e.g. {@code bigint}, {@code nvarchar(60)}, {@code numeric(20,0)}. */
    public static SqlType parse(String spelling) {
        String s = spelling.trim().toLowerCase(Locale.ROOT);
        Matcher m = SPELLING.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown SQL type '" + spelling + "'");
        }
        String base = m.group(1);
        int n = m.group(2) == null ? -1 : "max".equals(m.group(2)) ? -2 : Integer.parseInt(m.group(2));
        if (n == -2) {
            throw new IllegalArgumentException("'" + spelling + "': (max) types need PLP encoding, which this test server does not speak; use a length up to 4000");
        }
        return switch (base) {
            case "tinyint" -> new SqlType(s, Kind.INT, 1, 0, 0);
            case "smallint" -> new SqlType(s, Kind.INT, 2, 0, 0);
            case "int" -> new SqlType(s, Kind.INT, 4, 0, 0);
            case "bigint" -> new SqlType(s, Kind.INT, 8, 0, 0);
            case "bit" -> new SqlType(s, Kind.BIT, 1, 0, 0);
            case "real" -> new SqlType(s, Kind.FLOAT, 4, 0, 0);
            case "float" -> new SqlType(s, Kind.FLOAT, 8, 0, 0);
            case "decimal", "numeric" -> {
                int p = n < 0 ? 18 : n;
                int sc = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
                yield new SqlType(s, Kind.DECIMAL, decimalLength(p), p, sc);
            }
            case "nvarchar" -> new SqlType(s, Kind.NVARCHAR, 2 * Math.max(n, 1), 0, 0);
            case "varchar" -> new SqlType(s, Kind.VARCHAR, Math.max(n, 1), 0, 0);
            case "char" -> new SqlType(s, Kind.CHAR, Math.max(n, 1), 0, 0);
            case "varbinary" -> new SqlType(s, Kind.VARBINARY, Math.max(n, 1), 0, 0);
            case "uniqueidentifier" -> new SqlType(s, Kind.GUID, 16, 0, 0);
            case "datetime" -> new SqlType(s, Kind.DATETIME, 8, 0, 0);
            default -> throw new IllegalArgumentException("unsupported SQL type '" + spelling + "'");
        };
    }

    private static int decimalLength(int precision) {
        if (precision < 1 || precision > 38) {
            throw new IllegalArgumentException("decimal precision must be 1 to 38, was " + precision);
        }
        return precision <= 9 ? 5 : precision <= 19 ? 9 : precision <= 28 ? 13 : 17;
    }

    /** TYPE_INFO for COLMETADATA (MS-TDS 2.2.5.6). */
    void writeTypeInfo(TdsBuffer out) {
        switch (kind) {
            case INT -> out.u8(0x26).u8(length);
            case BIT -> out.u8(0x68).u8(1);
            case FLOAT -> out.u8(0x6D).u8(length);
            case DECIMAL -> out.u8(0x6C).u8(length).u8(precision).u8(scale);
            case NVARCHAR -> out.u8(0xE7).u16(length).bytes(COLLATION);
            case VARCHAR -> out.u8(0xA7).u16(length).bytes(COLLATION);
            case CHAR -> out.u8(0xAF).u16(length).bytes(COLLATION);
            case VARBINARY -> out.u8(0xA5).u16(length);
            case GUID -> out.u8(0x24).u8(16);
            case DATETIME -> out.u8(0x6F).u8(8);
            default -> throw new IllegalStateException(kind.name());
        }
    }

    /** One value in a ROW; null is the type's NULL marker. */
    void writeValue(TdsBuffer out, Object value) {
        boolean shortLength = kind == Kind.NVARCHAR || kind == Kind.VARCHAR || kind == Kind.CHAR || kind == Kind.VARBINARY;
        if (value == null) {
            if (shortLength) {
                out.u16(0xFFFF);
            } else {
                out.u8(0);
            }
            return;
        }
        switch (kind) {
            case INT -> {
                long v = toLong(value);
                out.u8(length);
                for (int i = 0; i < length; i++) {
                    out.u8((int) (v >>> (8 * i)));
                }
            }
            case BIT -> out.u8(1).u8(toBoolean(value) ? 1 : 0);
            case FLOAT -> {
                double d = ((Number) value).doubleValue();
                out.u8(length);
                if (length == 4) {
                    out.i32(Float.floatToIntBits((float) d));
                } else {
                    out.i64(Double.doubleToLongBits(d));
                }
            }
            case DECIMAL -> writeDecimal(out, value);
            case NVARCHAR -> {
                byte[] b = value.toString().getBytes(StandardCharsets.UTF_16LE);
                checkLength(b.length);
                out.u16(b.length).bytes(b);
            }
            case VARCHAR -> {
                byte[] b = value.toString().getBytes(WINDOWS_1252);
                checkLength(b.length);
                out.u16(b.length).bytes(b);
            }
            case CHAR -> {
                String padded = String.format(Locale.ROOT, "%-" + length + "s", value);
                byte[] b = padded.getBytes(WINDOWS_1252);
                checkLength(b.length);
                out.u16(b.length).bytes(b);
            }
            case VARBINARY -> {
                byte[] b = toBytes(value);
                checkLength(b.length);
                out.u16(b.length).bytes(b);
            }
            case GUID -> writeGuid(out, value instanceof UUID u ? u : UUID.fromString(value.toString()));
            case DATETIME -> writeDatetime(out, value instanceof LocalDateTime t ? t : LocalDateTime.parse(value.toString()));
            default -> throw new IllegalStateException(kind.name());
        }
    }

    private void checkLength(int bytes) {
        if (bytes > length) {
            throw new IllegalArgumentException("value of " + bytes + " bytes does not fit " + spelling);
        }
    }

    private void writeDecimal(TdsBuffer out, Object value) {
        BigDecimal d = value instanceof BigDecimal b ? b : new BigDecimal(value.toString());
        BigInteger unscaled = d.setScale(scale, java.math.RoundingMode.UNNECESSARY).unscaledValue();
        byte[] be = unscaled.abs().toByteArray();
        int magnitude = length - 1;
        if (be.length > magnitude + 1 || (be.length == magnitude + 1 && be[0] != 0)) {
            throw new IllegalArgumentException(value + " does not fit " + spelling);
        }
        out.u8(length).u8(unscaled.signum() < 0 ? 0 : 1);
        for (int i = 0; i < magnitude; i++) {
            int index = be.length - 1 - i;
            out.u8(index >= 0 ? be[index] : 0);
        }
    }

    /** uniqueidentifier bytes: the first three groups little-endian, the last eight bytes as written. */
    private static void writeGuid(TdsBuffer out, UUID uuid) {
        long hi = uuid.getMostSignificantBits();
        long lo = uuid.getLeastSignificantBits();
        int data1 = (int) (hi >>> 32);
        int data2 = (int) (hi >>> 16) & 0xFFFF;
        int data3 = (int) hi & 0xFFFF;
        out.u8(16).i32(data1).u16(data2).u16(data3);
        for (int i = 7; i >= 0; i--) {
            out.u8((int) (lo >>> (8 * i)));
        }
    }

    /** datetime: days since 1900-01-01, then 1/300 s ticks since midnight (MS-TDS 2.2.5.5.1.8). */
    private static void writeDatetime(TdsBuffer out, LocalDateTime t) {
        long days = ChronoUnit.DAYS.between(DATETIME_EPOCH, t.toLocalDate());
        long nanos = t.toLocalTime().toNanoOfDay();
        long ticks = Math.round(nanos * 300.0 / 1_000_000_000L);
        out.u8(8).i32((int) days).i32((int) ticks);
    }

    private static long toLong(Object value) {
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(value.toString());
    }

    private static boolean toBoolean(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Number n) {
            return n.intValue() != 0;
        }
        return Boolean.parseBoolean(value.toString()) || "1".equals(value.toString());
    }

    private static byte[] toBytes(Object value) {
        if (value instanceof byte[] b) {
            return b;
        }
        String hex = value.toString();
        if (hex.startsWith("0x") || hex.startsWith("0X")) {
            hex = hex.substring(2);
        }
        return HexFormat.of().parseHex(hex);
    }

    @Override
    public String toString() {
        return spelling;
    }

    /** Growable little-endian byte buffer for building tokens. */
    static final class TdsBuffer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);

        TdsBuffer u8(int v) {
            bytes.write(v & 0xFF);
            return this;
        }

        TdsBuffer u16(int v) {
            return u8(v).u8(v >>> 8);
        }

        TdsBuffer i32(int v) {
            return u16(v).u16(v >>> 16);
        }

        TdsBuffer i64(long v) {
            return i32((int) v).i32((int) (v >>> 32));
        }

        TdsBuffer bytes(byte[] b) {
            bytes.write(b, 0, b.length);
            return this;
        }

        /** B_VARCHAR: one length byte in characters, then UTF-16LE. */
        TdsBuffer bVarchar(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_16LE);
            return u8(s.length()).bytes(b);
        }

        /** US_VARCHAR: two length bytes in characters, then UTF-16LE. */
        TdsBuffer usVarchar(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_16LE);
            return u16(s.length()).bytes(b);
        }

        int size() {
            return bytes.size();
        }

        byte[] toByteArray() {
            return bytes.toByteArray();
        }

        void reset() {
            bytes.reset();
        }
    }
}
