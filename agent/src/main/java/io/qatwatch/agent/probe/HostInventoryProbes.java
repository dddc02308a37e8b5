package io.qatwatch.agent.probe;

import io.qatwatch.agent.probe.host.LinuxHostInventoryProbe;
import io.qatwatch.agent.probe.host.LinuxRoot;
import io.qatwatch.agent.probe.host.LiveRegistry;
import io.qatwatch.agent.probe.host.RegExport;
import io.qatwatch.agent.probe.host.RegistryView;
import io.qatwatch.agent.probe.host.WindowsHostInventoryProbe;
import io.qatwatch.agent.probe.qat.LiveWindowsLibraries;
import io.qatwatch.agent.probe.qat.WindowsLibraries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The one place that picks the host probe: live by operating system, or offline from a root folder or a registry export. */
public final class HostInventoryProbes {

    private HostInventoryProbes() {
    }

    /** This machine: the registry on Windows, {@code /} elsewhere. */
    public static HostInventoryProbe live() {
        return live(HostReads.UNSEEN);
    }

    /** This machine, every read also shown to {@code reads} ({@code probe --capture}). */
    public static HostInventoryProbe live(HostReads reads) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return new WindowsHostInventoryProbe(problems -> reads.registry(new LiveRegistry()), LiveWindowsLibraries.fromEnvironment(),
                    true, "run qatwatch as a user that can read HKEY_LOCAL_MACHINE");
        }
        return new LinuxHostInventoryProbe(reads.linux(LinuxRoot.live()), true);
    }

    /** A Linux file system under {@code root}, read as if it were {@code /}; nothing comes from the live machine. */
    public static HostInventoryProbe forRoot(Path root) {
        return forRoot(root, HostReads.UNSEEN);
    }

    /** As {@link #forRoot(Path)}, every read also shown to {@code reads}. */
    public static HostInventoryProbe forRoot(Path root, HostReads reads) {
        return new LinuxHostInventoryProbe(reads.linux(LinuxRoot.of(root)), false);
    }

    /** A {@code reg export} file of a Windows host; nothing comes from the live machine. */
    public static HostInventoryProbe forRegistryExport(Path file) {
        return forRegistryExport(file, HostReads.UNSEEN);
    }

    /** As {@link #forRegistryExport(Path)}, every read also shown to {@code reads}. */
    public static HostInventoryProbe forRegistryExport(Path file, HostReads reads) {
        String name = file.toString();
        return new WindowsHostInventoryProbe(problems -> {
            try {
                return reads.registry(RegExport.parse(Files.readAllBytes(file), name, problems));
            } catch (IOException e) {
                problems.cannotRead(name, e);
                return null;
            }
        }, WindowsLibraries.NONE, false, "export the keys with reg export (see docs/probe.md) and pass the file with --registry");
    }

    /** Who else sees the host probe's reads: a capture wraps the root or the registry it is given. */
    public interface HostReads {
        HostReads UNSEEN = new HostReads() {
            @Override
            public LinuxRoot linux(LinuxRoot root) {
                return root;
            }

            @Override
            public RegistryView registry(RegistryView registry) {
                return registry;
            }
        };

        LinuxRoot linux(LinuxRoot root);

        RegistryView registry(RegistryView registry);
    }
}
