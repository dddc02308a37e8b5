package io.qatwatch.collector.analysis;

/**
 * The strings the alert stage's instances share (database names and GUIDs, algorithms, targets): each given string
 * answered by the first equal one given. An open-addressed table of the strings alone, four to eight bytes a string
 * where a {@code HashMap} of each to itself takes about forty: most of a fleet's GUIDs are given once. Never forgets
 * a string (as the map it replaces). Not thread-safe.
 */
final class SharedStrings {

    private String[] table = new String[64];
    private int size;

    /** The first string equal to {@code s} given so far ({@code s} itself when it is the first); null for null. */
    String share(String s) {
        if (s == null) {
            return null;
        }
        int mask = table.length - 1;
        for (int at = spread(s.hashCode()) & mask; ; at = at + 1 & mask) {
            String held = table[at];
            if (held == null) {
                table[at] = s;
                if (++size > table.length / 2) {
                    grow();
                }
                return s;
            }
            if (held.equals(s)) {
                return held;
            }
        }
    }

    /** How many distinct strings it holds. */
    int size() {
        return size;
    }

    private void grow() {
        String[] old = table;
        table = new String[old.length * 2];
        int mask = table.length - 1;
        for (String s : old) {
            if (s != null) {
                int at = spread(s.hashCode()) & mask;
                while (table[at] != null) {
                    at = at + 1 & mask;
                }
                table[at] = s;
            }
        }
    }

    /** Mixes the high bits in: strings alike but for their ends (GUIDs of one server) would cluster otherwise. */
    private static int spread(int h) {
        h *= 0x9E37_79B9;
        return h ^ h >>> 16;
    }
}
