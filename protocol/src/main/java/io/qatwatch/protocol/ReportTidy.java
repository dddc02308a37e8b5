package io.qatwatch.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.qatwatch.protocol.ReportSchema.Field;
import io.qatwatch.protocol.ReportSchema.ListOf;
import io.qatwatch.protocol.ReportSchema.Obj;
import io.qatwatch.protocol.ReportSchema.Text;
import io.qatwatch.protocol.ReportSchema.Type;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Makes an agent's own report fit the text rules of {@link ReportSchema} before it is sent: what the agent read from
 * the host or from SQL Server (an OS name, a registry path, a server's message) may carry a control character or be
 * longer than its field allows, and the collector would refuse the whole report for good. Control characters become
 * spaces, a lone surrogate (SQL Server's UCS-2 names may hold one) becomes U+FFFD and over-long text is cut to its
 * limit, ending in "…". Free text only: enum values, patterns and numbers are
 * the agent's own and are left as they are.
 */
public final class ReportTidy {

    private ReportTidy() {
    }

    /** The report's JSON with every free-text string made to fit; the same bytes when nothing needed it. */
    public static byte[] tidy(byte[] json) {
        try {
            JsonNode tree = ReportJson.mapper().readTree(json);
            if (!(tree instanceof ObjectNode report) || !object(report, ReportSchema.REPORT)) {
                return json;
            }
            return ReportJson.mapper().writeValueAsBytes(report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tidies the fields of {@code node} in place; true when anything changed. */
    private static boolean object(ObjectNode node, Obj obj) {
        boolean changed = false;
        for (Field f : obj.fields()) {
            JsonNode value = node.get(f.name());
            if (value == null || value.isNull()) {
                continue;
            }
            if (value.isTextual()) {
                String fitted = fit(value.asText(), f.type());
                if (fitted != null) {
                    node.set(f.name(), TextNode.valueOf(fitted));
                    changed = true;
                }
            } else {
                changed |= nested(value, f.type());
            }
        }
        return changed;
    }

    private static boolean nested(JsonNode value, Type type) {
        if (type instanceof Obj obj && value instanceof ObjectNode o) {
            return object(o, obj);
        }
        if (type instanceof ListOf list && value instanceof ArrayNode array) {
            boolean changed = false;
            for (int i = 0; i < array.size(); i++) {
                JsonNode item = array.get(i);
                if (item.isTextual()) {
                    String fitted = fit(item.asText(), list.item());
                    if (fitted != null) {
                        array.set(i, TextNode.valueOf(fitted));
                        changed = true;
                    }
                } else {
                    changed |= nested(item, list.item());
                }
            }
            return changed;
        }
        return false;
    }

    /** The text made to fit a free-text rule, or null when it fits already or is not free text. */
    private static String fit(String s, Type type) {
        if (!(type instanceof Text rule) || !rule.values().isEmpty() || rule.pattern() != null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = ReportSchema.isControl(c);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            boolean lone = Character.isSurrogate(c) && !pair;
            if ((control || lone) && out == null) {
                out = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (out != null) {
                out.append(control ? ' ' : lone ? '\ufffd' : c);
                if (pair) {
                    out.append(s.charAt(i + 1));
                }
            }
            if (pair) {
                i++;
            }
        }
        String clean = out == null ? s : out.toString();
        if (clean.length() > rule.maxChars()) {
            int end = rule.maxChars() - 1;
            if (Character.isHighSurrogate(clean.charAt(end - 1))) {
                end--;
            }
            clean = clean.substring(0, end) + "…";
        }
        if (rule.nonBlank() && clean.isBlank()) {
            clean = "?";
        }
        return clean.equals(s) ? null : clean;
    }
}
