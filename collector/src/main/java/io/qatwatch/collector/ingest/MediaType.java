package io.qatwatch.collector.ingest;

import java.util.Locale;

/**
 * Whether a Content-Type names JSON exactly: {@code application/json}, in any case, with at most a
 * {@code charset=utf-8} parameter. Not a prefix match: {@code application/jsonp} or {@code application/json-seq}
 * are other types, and a form type is not JSON.
 */
final class MediaType {

    private MediaType() {
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";", -1);
        if (!parts[0].trim().toLowerCase(Locale.ROOT).equals("application/json")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            int eq = parameter.indexOf('=');
            if (eq < 0 || !parameter.substring(0, eq).trim().equalsIgnoreCase("charset")) {
                return false;
            }
            String value = parameter.substring(eq + 1).trim();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            if (!value.equalsIgnoreCase("utf-8")) {
                return false;
            }
        }
        return true;
    }

    /** A header value as an error message may repeat it: printable ASCII only, at most 80 characters. */
    static String shown(String value) {
        if (value == null) {
            return "none";
        }
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < value.length() && i < 80; i++) {
            char c = value.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.append(value.length() > 80 ? "…'" : "'").toString();
    }
}
