package io.qatwatch.agent.ship;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * The agent daemon's JSON: a report written byte for byte as {@link ReportJson#toBytes} writes it, and the
 * collector's answers read as trees, without Jackson's JSR-310 module. That module is 74 classes the daemon loaded
 * only to write each {@link Instant} as ISO-8601 UTC text, which {@link Instant#toString} already is (both format
 * with {@link java.time.format.DateTimeFormatter#ISO_INSTANT}); the wire format's reading rules are the collector's.
 */
public final class WireJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new SimpleModule("instants").addSerializer(Instant.class, ToStringSerializer.instance))
            .build();

    private WireJson() {
    }

    /** The report's JSON as it goes to the collector. */
    public static byte[] report(AgentReport report) {
        try {
            return MAPPER.writeValueAsBytes(report);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A collector's answer as a tree. */
    public static JsonNode tree(String body) throws JsonProcessingException {
        return MAPPER.readTree(body);
    }
}
