package io.qatwatch.agent.probe;

import io.qatwatch.protocol.HostFacts;
import io.qatwatch.protocol.LicenceFacts;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.QatFacts;
import java.util.List;

/** What the host probes found: the machine, its QAT devices and software, the licence verdict, and how each probe went. */
public record HostInventory(HostFacts host, QatFacts qat, LicenceFacts licence, List<ProbeStatus> probes) {

    public HostInventory {
        probes = probes == null ? List.of() : List.copyOf(probes);
    }
}
