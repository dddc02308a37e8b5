package io.qatwatch.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * JSON mapping of the wire format. Strict on types (no "12" for 12, no null for a number), lenient on
 * unknown fields so that an older collector reads a newer agent's additions.
 */
public final class ReportJson {

    /** Longest single JSON string accepted; the body limit bounds the rest. */
    public static final int MAX_STRING_CHARS = 64 * 1024;

    private static final ObjectMapper MAPPER = newMapper();

    private ReportJson() {
    }

    /** The mapper both sides use; thread-safe. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** A new mapper with the wire format's settings, for callers that need their own (e.g. pretty printing). */
    public static ObjectMapper newMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        mapper.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(MAX_STRING_CHARS)
                .maxNestingDepth(64)
                .build());
        mapper.getFactory().disable(JsonParser.Feature.ALLOW_COMMENTS);
        return mapper;
    }

    /** Parses a report; a malformed body or a wrong type raises {@link ReportFormatException} naming the field. */
    public static AgentReport parse(byte[] json) {
        try {
            return MAPPER.readValue(json, AgentReport.class);
        } catch (IOException e) {
            throw formatError(e);
        }
    }

    /**
     * As {@link #parse(byte[])}, from a stream (e.g. a gzip stream). Errors of the stream itself (a truncated
     * gzip, a size limit) are thrown as they are, so the caller can tell them from bad JSON.
     */
    public static AgentReport parse(InputStream json) throws IOException {
        try {
            return MAPPER.readValue(json, AgentReport.class);
        } catch (JsonProcessingException e) {
            throw formatError(e);
        }
    }

    public static byte[] toBytes(AgentReport report) {
        try {
            return MAPPER.writeValueAsBytes(report);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String toPrettyString(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ReportFormatException formatError(IOException e) {
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return new ReportFormatException(pathOf(mapping), describe(mapping));
        }
        if (e instanceof JsonProcessingException processing) {
            return new ReportFormatException("$", "malformed JSON: " + firstLine(processing.getOriginalMessage()));
        }
        return new ReportFormatException("$", "unreadable body: " + e.getMessage());
    }

    /** A message for a person: what the field should be, without Jackson's configuration hints. */
    static String describe(JsonMappingException e) {
        String original = firstLine(e.getOriginalMessage()).replaceAll("\\s*\\((set|enable|disable) [^)]*\\)", "");
        Class<?> target = e instanceof MismatchedInputException m ? m.getTargetType() : null;
        if (original.startsWith("Cannot map `null` into type")) {
            return "is required" + (target == null ? "" : " (" + expected(target) + ")");
        }
        return target == null ? original : "expected " + expected(target) + ": " + original;
    }

    private static String expected(Class<?> type) {
        if (type == int.class || type == long.class || type == Integer.class || type == Long.class) {
            return "an integer";
        }
        if (type == double.class || type == Double.class || type == float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == java.time.Instant.class) {
            return "a UTC ISO-8601 time such as 2026-01-02T03:04:05Z";
        }
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.toString(type.getEnumConstants());
        }
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    static String pathOf(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "$" : path.toString();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "invalid value";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
