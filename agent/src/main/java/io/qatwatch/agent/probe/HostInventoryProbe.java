package io.qatwatch.agent.probe;

/**
 * Probes the host once: CPU, system, virtualisation, QAT devices and software, licence. Blocking (file,
 * registry and OSHI reads): call it off the event loop. Never throws for a failed probe: failures are
 * reported in {@link HostInventory#probes()}.
 */
public interface HostInventoryProbe {

    HostInventory collect();
}
