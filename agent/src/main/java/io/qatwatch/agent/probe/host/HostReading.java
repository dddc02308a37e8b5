package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.qat.PciDevice;
import io.qatwatch.protocol.HostFacts;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** What a platform reader found about the machine, before virtualisation is decided (that also needs the PCI vendors). */
public record HostReading(
        String hostname,
        CpuInfo cpu,
        HostFacts.SystemInfo system,
        String biosVendor,
        HostFacts.OperatingSystem os,
        Long memoryBytes) {

    /** Nothing could be read. */
    static final HostFacts NO_FACTS = new HostFacts(null, null, null, null, null, null);

    /** The host facts of the report, with the hypervisor decided from these strings and the PCI vendors. */
    public HostFacts toFacts(List<PciDevice> pci) {
        Set<String> vendors = pci.stream().map(PciDevice::vendorId).collect(Collectors.toSet());
        String manufacturer = system == null ? null : system.manufacturer();
        String model = system == null ? null : system.model();
        String virtualization = Virtualization.detect(
                new Virtualization.Signals(cpu, manufacturer, model, biosVendor, vendors));
        HostFacts.Cpu cpuFacts = cpu.vendor() == null && cpu.model() == null ? null
                : new HostFacts.Cpu(cpu.vendor(), cpu.model(), cpu.sockets(), cpu.logicalCores());
        return new HostFacts(hostname, cpuFacts, system, virtualization, os, memoryBytes);
    }
}
