package io.qatwatch.collector.testing;

import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Reports built from the golden one, each with its own id and its own run of backups. */
public final class TestReports {

    private TestReports() {
    }

    /**
     * Report number {@code n}: id {@code report-000n-...}, created at {@code base + n minutes}, carrying
     * {@code backups} full backups with set ids {@code n*1000+1 ...}, each finishing at its own second.
     */
    public static AgentReport numbered(int n, int backups, Instant base) {
        AgentReport golden = GoldenReports.complete();
        SqlInstanceSnapshot instance = golden.instances().get(0);
        BackupRecord template = instance.backups().get(0);
        Instant created = base.plus(Duration.ofMinutes(n));
        List<BackupRecord> records = new ArrayList<>();
        for (int i = 1; i <= backups; i++) {
            long setId = n * 1000L + i;
            Instant start = created.minus(Duration.ofHours(2)).plusSeconds(i * 10L);
            records.add(new BackupRecord(setId, "db" + i, template.databaseGuid(), template.type(), false, start,
                    start.plusSeconds(5 + i), true, 1_000_000L * i, 400_000L * i, template.compressionAlgorithm(),
                    true, null, null, null, template.deviceType(), template.target()));
        }
        SqlInstanceSnapshot snapshot = new SqlInstanceSnapshot(instance.name(), created, instance.server(),
                instance.configuration(), instance.accelerators(), instance.databases(), records,
                instance.runningBackups(), instance.certificates(), n * 1000L + backups);
        return new AgentReport(golden.schemaVersion(), String.format("report-%04d-0000-4000-8000-000000000000", n),
                created, golden.agent(), null, null, null, List.of(snapshot), golden.probes());
    }

    /**
     * The golden report as agent {@code n} sends it at {@code at} with its instance's QAT row {@code qat} and no
     * backups: what a cycle reports when only the accelerator status may have changed. {@code qatFacts} replaces the
     * host probe's QAT section when not null.
     */
    public static AgentReport accelerator(int n, Instant at, AcceleratorStatus qat, io.qatwatch.protocol.QatFacts qatFacts) {
        AgentReport golden = GoldenReports.complete();
        SqlInstanceSnapshot instance = golden.instances().get(0);
        SqlInstanceSnapshot snapshot = new SqlInstanceSnapshot(instance.name(), at, instance.server(),
                instance.configuration(), List.of(qat), instance.databases(), List.of(), List.of(),
                instance.certificates(), instance.backupHighWaterMark());
        return new AgentReport(golden.schemaVersion(), java.util.UUID.nameUUIDFromBytes((n + "@" + at).getBytes(
                java.nio.charset.StandardCharsets.UTF_8)).toString(), at, golden.agent(), golden.host(),
                qatFacts == null ? golden.qat() : qatFacts, golden.licence(), List.of(snapshot), golden.probes());
    }

    /** {@code report} as an agent with {@code tags} in its configuration sends it, under report id {@code reportId}. */
    public static AgentReport tagged(AgentReport report, String reportId, java.util.Map<String, String> tags) {
        io.qatwatch.protocol.AgentInfo a = report.agent();
        return new AgentReport(report.schemaVersion(), reportId, report.createdAt(),
                new io.qatwatch.protocol.AgentInfo(a.name(), a.version(), a.uptimeSeconds(), a.outboxDepth(),
                        a.outboxDroppedTotal(), a.outboxCorruptTotal(), a.outboxLostTotal(), tags),
                report.host(), report.qat(), report.licence(), report.instances(), report.probes());
    }
}
