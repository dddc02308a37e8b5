package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * A report's host and instance sections serialised to the JSON the store keeps, each with a digest so the store
 * can tell a changed section from one the agent sent again unchanged. Built off the store's writer thread (on the
 * worker that parsed the report), so the single writer only compares and writes.
 *
 * @param instances one entry per {@link AgentReport#instances()}, in the same order
 * @param tags      the agent's tags alone (null when it has none), kept apart from the agent section, which changes
 *                  every report, so that a change of tags can be told
 */
public record ReportSections(Section agent, Section probes, Section facts, Section qat, Section licence,
        List<InstanceSections> instances, Section tags) {

    private static final ObjectMapper JSON = ReportJson.mapper();

    /** 128 bits of the SHA-256 of a section's JSON: equal digests mean equal JSON. */
    public record Digest(long high, long low) {
    }

    /** One section's JSON and its digest; a section the report left out is a null {@code Section}. */
    public record Section(String json, Digest digest) {
    }

    /** The sections of one SQL Server instance. */
    public record InstanceSections(Section server, Section configuration, Section accelerators, Section databases,
            Section running, Section certificates, Section asymmetricKeys, Section jobs) {
    }

    /** Serialises and digests every section of {@code report}. */
    public static ReportSections of(AgentReport report) {
        List<InstanceSections> instances = new ArrayList<>(report.instances().size());
        for (SqlInstanceSnapshot s : report.instances()) {
            instances.add(new InstanceSections(section(s.server()), section(s.configuration()),
                    section(s.accelerators()), section(s.databases()), section(s.runningBackups()),
                    section(s.certificates()), section(s.asymmetricKeys()), section(s.jobs())));
        }
        var tags = report.agent() == null || report.agent().tags() == null || report.agent().tags().isEmpty() ? null
                : report.agent().tags();
        return new ReportSections(section(report.agent()), section(report.probes()), section(report.host()),
                section(report.qat()), section(report.licence()), instances, section(tags));
    }

    private static Section section(Object value) {
        if (value == null) {
            return null;
        }
        try {
            String json = JSON.writeValueAsString(value);
            return new Section(json, digest(json));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Digest digest(String json) {
        return digest(json.getBytes(StandardCharsets.UTF_8));
    }

    private static Digest digest(byte[] bytes) {
        try {
            ByteBuffer sha = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(bytes));
            return new Digest(sha.getLong(), sha.getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * One digest of several sections, a left-out one counted as left out: equal when each section is equal (and each
     * left out alike). What PostgreSQL's batch writer remembers of a row it wrote ({@link PostgresReportBatch}).
     */
    static Digest combined(Section... sections) {
        ByteBuffer all = ByteBuffer.allocate(17 * sections.length);
        for (Section s : sections) {
            if (s == null) {
                all.put((byte) 0).putLong(0).putLong(0);
            } else {
                all.put((byte) 1).putLong(s.digest().high()).putLong(s.digest().low());
            }
        }
        return digest(all.array());
    }

    /** The JSON of {@code section}, or null when the report left it out. */
    static String json(Section section) {
        return section == null ? null : section.json();
    }
}
