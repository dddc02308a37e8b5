package io.qatwatch.protocol;

/**
 * Well-formed UTF-8 (Unicode table 3-7), checked byte by byte: Jackson decodes an overlong {@code C0 AF} or an
 * encoded surrogate {@code ED A0 80} without complaint, and what it lets through would reach the store, logs and
 * chat as characters the agent never sent.
 */
final class Utf8 {

    private Utf8() {
    }

    /** Raises a body error naming the first byte that is not well-formed UTF-8 JSON text. */
    static void requireWellFormed(byte[] b) {
        int bad = firstMalformed(b);
        if (bad >= 0) {
            String why = b[bad] == 0 ? "a NUL byte (JSON text has none: is the body UTF-16?)"
                    : String.format("byte 0x%02X does not start or continue a well-formed UTF-8 sequence", b[bad] & 0xff);
            throw new ReportFormatException("$", "not well-formed UTF-8 at byte " + bad + ": " + why
                    + "; send the report as UTF-8");
        }
    }

    /** The index of the first byte of the first ill-formed sequence (or of a NUL byte), or -1 when all is well. */
    static int firstMalformed(byte[] b) {
        int i = 0;
        int n = b.length;
        while (i < n) {
            int c = b[i];
            if (c > 0) {
                i++;
                continue;
            }
            if (c == 0) {
                return i;
            }
            int lead = c & 0xff;
            int need;
            int lo = 0x80;
            int hi = 0xbf;
            if (lead >= 0xc2 && lead <= 0xdf) {
                need = 1;
            } else if (lead >= 0xe0 && lead <= 0xef) {
                need = 2;
                if (lead == 0xe0) {
                    lo = 0xa0; // below: overlong
                } else if (lead == 0xed) {
                    hi = 0x9f; // above: UTF-16 surrogates
                }
            } else if (lead >= 0xf0 && lead <= 0xf4) {
                need = 3;
                if (lead == 0xf0) {
                    lo = 0x90; // below: overlong
                } else if (lead == 0xf4) {
                    hi = 0x8f; // above: past U+10FFFF
                }
            } else {
                return i; // a continuation byte without a lead, C0/C1 (always overlong) or F5..FF
            }
            if (i + need >= n) {
                return i;
            }
            int second = b[i + 1] & 0xff;
            if (second < lo || second > hi) {
                return i;
            }
            for (int k = 2; k <= need; k++) {
                int cont = b[i + k] & 0xff;
                if (cont < 0x80 || cont > 0xbf) {
                    return i;
                }
            }
            i += need + 1;
        }
        return -1;
    }
}
