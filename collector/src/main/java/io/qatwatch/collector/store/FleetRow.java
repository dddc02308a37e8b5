package io.qatwatch.collector.store;

import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatFacts;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Instant;
import java.util.List;

/**
 * The latest known state of one host: its facts (null until a report carried them), its SQL Server
 * instances' latest sections merged across reports, and when it last reported.
 */
public record FleetRow(
        String host,
        Instant firstSeen,
        Instant lastSeen,
        AgentInfo agent,
        HostFacts facts,
        QatFacts qat,
        LicenceFacts licence,
        List<ProbeStatus> probes,
        List<SqlInstanceSnapshot> instances) {
}
