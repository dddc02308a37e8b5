package io.qatwatch.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qatwatch.protocol.ReportSchema.Bool;
import io.qatwatch.protocol.ReportSchema.Decimal;
import io.qatwatch.protocol.ReportSchema.Field;
import io.qatwatch.protocol.ReportSchema.Int;
import io.qatwatch.protocol.ReportSchema.ListOf;
import io.qatwatch.protocol.ReportSchema.MapOf;
import io.qatwatch.protocol.ReportSchema.Obj;
import io.qatwatch.protocol.ReportSchema.Text;
import io.qatwatch.protocol.ReportSchema.Time;
import io.qatwatch.protocol.ReportSchema.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reports made from {@link ReportSchema} itself, for tests that must cover every field: one valid report in which
 * every object and list of the schema appears once with every field set, and for each field the ways to break each
 * of its rules. Shared with the collector's bad-input corpus.
 */
public final class SchemaSamples {

    /** When the samples' observed times are valid: their times lie a little before it. */
    public static final String NOW = "2026-11-30T07:00:00Z";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** Values for fields whose pattern a plain "a" does not match. */
    private static final Map<String, String> PATTERNED = Map.of(
            "reportId", "5f0c2a1e-8b7d-4c36-9a51-0d2e6f4b7c19",
            "pciId", "8086:4940",
            "name", "MSSQLSERVER",
            "activeStartTime", "01:30:00");

    private SchemaSamples() {
    }

    /**
     * One way to break a rule: what it changes in the valid report, the path the collector must name, and a part of
     * the message it must give.
     */
    public record Breach(String name, String field, String message, Consumer<ObjectNode> change) {
        @Override
        public String toString() {
            return name;
        }

        /** The valid report with this change, as bytes. */
        public byte[] body() {
            ObjectNode report = validReport();
            change.accept(report);
            try {
                return ReportJson.mapper().writeValueAsBytes(report);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A report valid at {@link #NOW} in which every field of the schema has a value and every list one item. */
    public static ObjectNode validReport() {
        return object(ReportSchema.REPORT);
    }

    private static ObjectNode object(Obj obj) {
        ObjectNode node = JSON.objectNode();
        for (Field f : obj.fields()) {
            node.set(f.name(), sample(f.name(), f.type()));
        }
        return node;
    }

    private static JsonNode sample(String name, Type type) {
        if (type instanceof Obj obj) {
            return object(obj);
        }
        if (type instanceof ListOf list) {
            ArrayNode array = JSON.arrayNode();
            array.add(sample(name, list.item()));
            return array;
        }
        if (type instanceof MapOf) {
            ObjectNode map = JSON.objectNode();
            map.put("env", "prod");
            return map;
        }
        if (type instanceof Text text) {
            if (!text.values().isEmpty()) {
                return JSON.textNode(text.values().get(0));
            }
            return JSON.textNode(text.pattern() == null ? "a" : PATTERNED.get(name));
        }
        if (type instanceof Int i) {
            return JSON.numberNode(Math.max(i.min(), Math.min(1, i.max())));
        }
        if (type instanceof Decimal d) {
            return JSON.numberNode((d.min() + d.max()) / 2);
        }
        if (type instanceof Bool) {
            return JSON.booleanNode(true);
        }
        if (type instanceof Time) {
            return JSON.textNode("2026-11-30T06:00:00Z");
        }
        throw new IllegalArgumentException(type.toString());
    }

    /** For every field of the schema, each way to break each of its rules. */
    public static List<Breach> breaches() {
        List<Breach> out = new ArrayList<>();
        ReportSchema.paths().forEach((path, f) -> breachesOf(path, f, out));
        return out;
    }

    private static void breachesOf(String schemaPath, Field f, List<Breach> out) {
        String at = schemaPath.replace("[]", "[0]");
        Type t = f.type();
        if (f.required()) {
            out.add(new Breach(schemaPath + " null", at, "is required", r -> parentOf(r, at).putNull(last(at))));
            out.add(new Breach(schemaPath + " left out", at, "is required", r -> parentOf(r, at).remove(last(at))));
        }
        if (t instanceof ListOf list) {
            out.add(new Breach(schemaPath + " as an object", at, "expected a list", r -> parentOf(r, at).putObject(last(at))));
            out.add(new Breach(schemaPath + " holding a null", at + "[0]", "is required",
                    r -> ((ArrayNode) parentOf(r, at).get(last(at))).insertNull(0)));
            if (list.maxItems() <= ReportSchema.MAX_LIST_ITEMS) {
                out.add(new Breach(schemaPath + " with " + (list.maxItems() + 1) + " items", at, "at most " + list.maxItems(), r -> {
                    ArrayNode array = (ArrayNode) parentOf(r, at).get(last(at));
                    JsonNode item = array.get(0);
                    for (int i = 0; i < list.maxItems(); i++) {
                        array.add(item.deepCopy());
                    }
                }));
            }
            Type item = list.item();
            if (!(item instanceof Obj)) {
                breachesOfValue(schemaPath + "[]", at + "[0]", item, out);
            }
            return;
        }
        breachesOfValue(schemaPath, at, t, out);
    }

    private static void breachesOfValue(String schemaPath, String at, Type t, List<Breach> out) {
        if (t instanceof MapOf map) {
            out.add(new Breach(schemaPath + " as a list", at, "expected an object", r -> set(r, at, JSON.arrayNode())));
            out.add(new Breach(schemaPath + " with a bad name", at + ".bad key", "is not a valid name",
                    r -> ((ObjectNode) r.at(pointer(at))).put("bad key", "x")));
            out.add(new Breach(schemaPath + " with a number", at + ".env", "expected", r -> ((ObjectNode) r.at(pointer(at))).put("env", 1)));
            out.add(new Breach(schemaPath + " with a comma", at + ".env", "no commas",
                    r -> ((ObjectNode) r.at(pointer(at))).put("env", "prod,test")));
            out.add(new Breach(schemaPath + " with " + (map.maxEntries() + 1) + " entries", at, "at most " + map.maxEntries(), r -> {
                ObjectNode node = (ObjectNode) r.at(pointer(at));
                for (int i = 0; i <= map.maxEntries(); i++) {
                    node.put("k" + i, "v");
                }
            }));
        } else if (t instanceof Obj) {
            out.add(new Breach(schemaPath + " as a list", at, "expected an object", r -> set(r, at, JSON.arrayNode())));
            out.add(new Breach(schemaPath + " as a string", at, "expected an object", r -> set(r, at, JSON.textNode("{}"))));
        } else if (t instanceof Text text) {
            out.add(new Breach(schemaPath + " as a number", at, "expected", r -> set(r, at, JSON.numberNode(12))));
            out.add(new Breach(schemaPath + " with a control character", at, "control character U+0007",
                    r -> set(r, at, JSON.textNode(r.at(pointer(at)).asText() + "\u0007"))));
            if (!text.values().isEmpty()) {
                String value = text.values().get(0);
                String wrong = value.equals(value.toLowerCase()) ? value.toUpperCase() : value.toLowerCase();
                out.add(new Breach(schemaPath + " spelled " + wrong, at, "must be one of", r -> set(r, at, JSON.textNode(wrong))));
                out.add(new Breach(schemaPath + " not one of the values", at, "must be one of",
                        r -> set(r, at, JSON.textNode("FLOPPY"))));
            } else if (text.pattern() == null) {
                out.add(new Breach(schemaPath + " one character too long", at, "at most " + text.maxChars(),
                        r -> set(r, at, JSON.textNode("é".repeat(text.maxChars() + 1)))));
                // JSON escapes a lone surrogate as backslash-u D800: well-formed, but not a character
                out.add(new Breach(schemaPath + " with a lone surrogate", at, "lone surrogate U+D800",
                        r -> set(r, at, JSON.textNode(r.at(pointer(at)).asText() + "\ud800"))));
                if (text.nonBlank()) {
                    out.add(new Breach(schemaPath + " blank", at, "must not be blank", r -> set(r, at, JSON.textNode("  "))));
                }
            } else {
                out.add(new Breach(schemaPath + " not matching its pattern", at, "must be",
                        r -> set(r, at, JSON.textNode("a/b c"))));
            }
        } else if (t instanceof Int i) {
            out.add(new Breach(schemaPath + " as a string", at, "expected an integer", r -> set(r, at, JSON.textNode("1"))));
            out.add(new Breach(schemaPath + " with a fraction", at, "expected an integer", r -> set(r, at, JSON.numberNode(1.5))));
            if (i.min() > Long.MIN_VALUE) {
                out.add(new Breach(schemaPath + " below " + i.min(), at, "", r -> set(r, at, JSON.numberNode(i.min() - 1))));
            }
            if (i.max() < Long.MAX_VALUE) {
                out.add(new Breach(schemaPath + " above " + i.max(), at, "", r -> set(r, at, JSON.numberNode(i.max() + 1))));
            }
        } else if (t instanceof Decimal d) {
            out.add(new Breach(schemaPath + " as a string", at, "expected a number", r -> set(r, at, JSON.textNode("50"))));
            out.add(new Breach(schemaPath + " above " + d.max(), at, "between", r -> set(r, at, JSON.numberNode(d.max() + 0.5))));
            out.add(new Breach(schemaPath + " below " + d.min(), at, "between", r -> set(r, at, JSON.numberNode(d.min() - 0.5))));
        } else if (t instanceof Bool) {
            out.add(new Breach(schemaPath + " as a string", at, "expected true or false", r -> set(r, at, JSON.textNode("true"))));
            out.add(new Breach(schemaPath + " as a number", at, "expected true or false", r -> set(r, at, JSON.numberNode(1))));
        } else if (t instanceof Time time) {
            out.add(new Breach(schemaPath + " as epoch seconds", at, "ISO-8601", r -> set(r, at, JSON.numberNode(1_796_000_000L))));
            out.add(new Breach(schemaPath + " without a zone", at, "ISO-8601", r -> set(r, at, JSON.textNode("2026-11-30T06:00:00"))));
            out.add(new Breach(schemaPath + " with an offset", at, "ISO-8601", r -> set(r, at, JSON.textNode("2026-11-30T06:00:00+01:00"))));
            if (time.observed()) {
                out.add(new Breach(schemaPath + " in the future", at, "in the future", r -> set(r, at, JSON.textNode("2026-12-02T07:00:00Z"))));
                out.add(new Breach(schemaPath + " before 1990", at, "before 1990", r -> set(r, at, JSON.textNode("1989-12-31T23:59:59Z"))));
            }
        }
    }

    /** Bytes written as hex pairs, {@code "ED A0 80"}. */
    public static byte[] hex(String hex) {
        String[] parts = hex.split(" ");
        byte[] out = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }

    /** A JSON pointer for a path like {@code instances[0].backups[0].type}. */
    public static String pointer(String path) {
        return "/" + path.replace("[", ".").replace("]", "").replace('.', '/');
    }

    private static ObjectNode parentOf(ObjectNode report, String path) {
        String p = pointer(path);
        JsonNode parent = report.at(p.substring(0, p.lastIndexOf('/')));
        return (ObjectNode) parent;
    }

    private static String last(String path) {
        String p = pointer(path);
        return p.substring(p.lastIndexOf('/') + 1);
    }

    private static void set(ObjectNode report, String path, JsonNode value) {
        String p = pointer(path);
        JsonNode parent = report.at(p.substring(0, p.lastIndexOf('/')));
        String key = p.substring(p.lastIndexOf('/') + 1);
        if (parent instanceof ArrayNode array) {
            array.set(Integer.parseInt(key), value);
        } else {
            ((ObjectNode) parent).set(key, value);
        }
    }
}
