package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.HostInventory;
import io.qatwatch.agent.probe.HostInventoryProbe;
import io.qatwatch.agent.probe.HostInventoryProbes;
import io.qatwatch.agent.ship.Outbox;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportValidator;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

/**
 * Not a test: the CPU time of each part of a host report's cycle on this machine (probe, JSON, validation, outbox with
 * fsync, read back and acknowledge, gzip), measured on the calling thread, for docs/benchmarks.md ("Session 5").
 * Run it with the launcher's agent flags: {@code java <AGENT_JAVA_OPTS_DEFAULT> -cp
 * agent/target/test-classes:agent/target/qatwatch-agent-all.jar io.qatwatch.agent.daemon.CycleParts 3 20 [dir]}
 * (3 calls of warm-up, 20 measured, the outbox in a new folder under {@code dir}, default {@code /tmp}).
 */
public final class CycleParts {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private interface Part {
        void run() throws Exception;
    }

    private CycleParts() {
    }

    public static void main(String[] args) throws Exception {
        int warm = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        Path under = Path.of(args.length > 2 ? args[2] : "/tmp");
        HostInventoryProbe probe = HostInventoryProbes.live();
        HostInventory[] inventory = new HostInventory[1];
        io.qatwatch.agent.probe.host.LinuxRoot root = io.qatwatch.agent.probe.host.LinuxRoot.live();
        io.qatwatch.agent.probe.qat.LinuxPciReader pci = new io.qatwatch.agent.probe.qat.LinuxPciReader(root);
        List<io.qatwatch.agent.probe.qat.PciDevice> devices = pci.read(new io.qatwatch.agent.probe.ProbeProblems());
        time("  host: cpu, DMI, os, memory", warm, calls,
                () -> new io.qatwatch.agent.probe.host.LinuxHostReader(root).read(new io.qatwatch.agent.probe.ProbeProblems()));
        time("  pci (names kept)", warm, calls, () -> pci.read(new io.qatwatch.agent.probe.ProbeProblems()));
        io.qatwatch.agent.probe.qat.LinuxQatReader qat = new io.qatwatch.agent.probe.qat.LinuxQatReader(root);
        time("  qat (listings kept)", warm, calls, () -> qat.read(devices, new io.qatwatch.agent.probe.ProbeProblems()));
        time("host probe", warm, calls, () -> inventory[0] = probe.collect());
        HostInventory inv = inventory[0];
        AgentReport report = new AgentReport(AgentReport.SCHEMA_VERSION, UUID.randomUUID().toString(), Instant.now(),
                new AgentInfo("cycle-parts", "0", 1, 0, 0, 0), inv.host(), inv.qat(), inv.licence(), List.of(), inv.probes());
        byte[][] json = new byte[1][];
        time("report JSON", warm, calls, () -> json[0] = io.qatwatch.agent.ship.WireJson.report(report));
        System.out.println("host report: " + json[0].length + " bytes");
        time("validation", warm, calls, () -> ReportValidator.validate(json[0], Instant.now()));
        Path dir = Files.createTempDirectory(under, "cycle-parts");
        try (Outbox outbox = Outbox.open(dir.resolve("outbox"), new OutboxSettings(64L << 20, 4L << 20, true, 20))) {
            time("outbox append (fsync)", warm, calls, () -> outbox.append(UUID.randomUUID().toString(), json[0]));
            time("outbox peek + acknowledge", warm, calls, () -> outbox.acknowledge(outbox.peek().orElseThrow().seq()));
        }
        time("gzip", warm, calls, () -> {
            try (GZIPOutputStream gz = new GZIPOutputStream(new ByteArrayOutputStream())) {
                gz.write(json[0]);
            }
        });
    }

    private static void time(String name, int warm, int calls, Part part) throws Exception {
        for (int i = 0; i < warm; i++) {
            part.run();
        }
        long cpu = THREADS.getCurrentThreadCpuTime();
        long bytes = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
        long wall = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            part.run();
        }
        long allocated = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - bytes;
        System.out.printf("%-30s CPU %7.3f ms, wall %7.3f ms, %,9d B allocated a call (%d calls after %d)%n", name,
                (THREADS.getCurrentThreadCpuTime() - cpu) / 1e6 / calls, (System.nanoTime() - wall) / 1e6 / calls,
                allocated / calls, calls, warm);
    }
}
