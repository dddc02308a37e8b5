package io.qatwatch.agent.probe.qat;

import com.sun.jna.platform.win32.VerRsrc;
import com.sun.jna.platform.win32.VersionUtil;
import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The live Windows files: {@code qatzip.dll} in System32 and {@code isa-l.dll} under
 * {@code Program Files\Intel\ISAL}, where SQL Server looks for them, with their file versions (JNA).
 */
public final class LiveWindowsLibraries implements WindowsLibraries {

    private final Path systemRoot;
    private final Path programFiles;

    public LiveWindowsLibraries(Path systemRoot, Path programFiles) {
        this.systemRoot = systemRoot;
        this.programFiles = programFiles;
    }

    /** From the {@code SystemRoot} and {@code ProgramFiles} environment variables. */
    public static LiveWindowsLibraries fromEnvironment() {
        return new LiveWindowsLibraries(Path.of(System.getenv().getOrDefault("SystemRoot", "C:\\Windows")),
                Path.of(System.getenv().getOrDefault("ProgramFiles", "C:\\Program Files")));
    }

    @Override
    public List<SoftwareItem> find(ProbeProblems problems) {
        List<SoftwareItem> items = new ArrayList<>();
        Path qatzip = systemRoot.resolve("System32").resolve("qatzip.dll");
        if (Files.isRegularFile(qatzip)) {
            items.add(item(qatzip, problems));
        }
        Path isal = programFiles.resolve("Intel").resolve("ISAL");
        if (Files.isDirectory(isal)) {
            try (Stream<Path> files = Files.walk(isal, 3)) {
                files.filter(p -> p.getFileName().toString().equalsIgnoreCase("isa-l.dll"))
                        .sorted().forEach(p -> items.add(item(p, problems)));
            } catch (IOException e) {
                problems.cannotRead(isal.toString(), e);
            }
        }
        return items;
    }

    private static SoftwareItem item(Path file, ProbeProblems problems) {
        String version = null;
        try {
            VerRsrc.VS_FIXEDFILEINFO info = VersionUtil.getFileVersionInfo(file.toString());
            version = info.getFileVersionMajor() + "." + info.getFileVersionMinor() + "."
                    + info.getFileVersionRevision() + "." + info.getFileVersionBuild();
        } catch (RuntimeException | LinkageError e) {
            problems.add("cannot read the file version of " + file + ": " + e.getMessage());
        }
        return new SoftwareItem(file.getFileName().toString(), file.toString(), version, null);
    }
}
