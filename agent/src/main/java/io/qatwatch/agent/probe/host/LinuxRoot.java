package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.ProbeProblems;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A Linux file system seen through a root folder ({@code /} live, a fixture tree or a mounted image with
 * {@code --root}). Every Linux read of the probe goes through here; paths are relative to the root and
 * shown to people as the host names them ({@code /sys/...}).
 */
public final class LinuxRoot {

    /**
     * Sees every read that found something, so that {@code probe --capture} can copy exactly what the probe used:
     * a file's bytes, a folder's listing, an entry looked at (exists, a folder, a link).
     */
    public interface Observer {
        void read(String relative, byte[] content);

        void listed(String relative, List<String> names);

        void looked(String relative);
    }

    private static final Observer NOBODY = new Observer() {
        @Override
        public void read(String relative, byte[] content) {
        }

        @Override
        public void listed(String relative, List<String> names) {
        }

        @Override
        public void looked(String relative) {
        }
    };

    private final Path root;
    private final Observer observer;

    private LinuxRoot(Path root, Observer observer) {
        this.root = root;
        this.observer = observer;
    }

    public static LinuxRoot of(Path root) {
        return new LinuxRoot(root.toAbsolutePath().normalize(), NOBODY);
    }

    /** The same root, every successful read also told to {@code observer}. */
    public LinuxRoot observed(Observer observer) {
        return new LinuxRoot(root, observer);
    }

    /** The live machine's root folder. */
    public static LinuxRoot live() {
        return of(Path.of("/"));
    }

    public Path folder() {
        return root;
    }

    /** The path as the probed host names it, e.g. {@code /proc/cpuinfo}. */
    public static String display(String relative) {
        return "/" + relative;
    }

    /** The file's text, empty when it does not exist; any other failure (a folder, no permission) is thrown. */
    public Optional<String> read(String relative) throws IOException {
        byte[] bytes;
        try {
            bytes = readAllBytes(root.resolve(relative));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (AccessDeniedException e) {
            throw e;
        } catch (IOException e) {
            // a folder where a file should be: a capture holds the same folder, so that its replay fails alike
            looked(relative, Files.exists(root.resolve(relative), LinkOption.NOFOLLOW_LINKS));
            throw e;
        }
        observer.read(relative, bytes);
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.of(new String(bytes, StandardCharsets.ISO_8859_1));
        }
    }

    /**
     * The file's bytes. {@code Files.readAllBytes} sizes its buffer by the size the file system reports, and every file
     * of {@code /sys} reports 4,096 bytes whatever it holds: the host probe reads a few dozen such files of a few bytes
     * each run (a PCI function's vendor, device, class; DMI strings), and those buffers were most of what the probe's
     * host and PCI steps allocated. A file that reports no more than a page starts from a small buffer instead.
     */
    private static byte[] readAllBytes(Path file) throws IOException {
        try (java.nio.channels.SeekableByteChannel in = Files.newByteChannel(file)) {
            long size = in.size();
            byte[] buffer = new byte[size > 4096 ? (int) Math.min(size + 1, Integer.MAX_VALUE - 8) : 256];
            int n = 0;
            while (true) {
                if (n == buffer.length) {
                    buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
                }
                int read = in.read(ByteBuffer.wrap(buffer, n, buffer.length - n));
                if (read < 0) {
                    return n == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, n);
                }
                n += read;
            }
        }
    }

    /** The first line of the file, trimmed; empty when the file does not exist or is blank. */
    public Optional<String> readLine(String relative) throws IOException {
        return read(relative).map(LinuxRoot::firstLine).filter(s -> !s.isEmpty());
    }

    /** The first line that is not blank, trimmed (what {@code strip} then {@code lines} gave, without a stream per file). */
    private static String firstLine(String text) {
        String stripped = text.strip();
        int end = 0;
        while (end < stripped.length() && stripped.charAt(end) != '\n' && stripped.charAt(end) != '\r') {
            end++;
        }
        return stripped.substring(0, end).strip();
    }

    public boolean exists(String relative) {
        return looked(relative, Files.exists(root.resolve(relative), LinkOption.NOFOLLOW_LINKS));
    }

    public boolean isFolder(String relative) {
        return looked(relative, Files.isDirectory(root.resolve(relative)));
    }

    private boolean looked(String relative, boolean found) {
        if (found) {
            observer.looked(relative);
        }
        return found;
    }

    /** Names in a folder, sorted; empty when the folder does not exist. */
    public List<String> list(String relative) throws IOException {
        Path folder = root.resolve(relative);
        if (!Files.exists(folder)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(folder)) {
            List<String> names = new ArrayList<>();
            entries.forEach(p -> names.add(p.getFileName().toString()));
            names.sort(null);
            observer.listed(relative, names);
            return names;
        } catch (NotDirectoryException e) {
            throw new NotDirectoryException(display(relative) + " (not a folder)");
        }
    }

    /** Names in a folder that match a glob ({@code lib{qat,usdm}*}), sorted; empty when the folder does not exist. */
    public List<String> list(String relative, String glob) throws IOException {
        Path folder = root.resolve(relative);
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(folder, glob)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        observer.listed(relative, names);
        return names;
    }

    /** A folder's identity (device, inode) and change time ({@code ctime}): see {@link FolderListings}. */
    public record FolderStamp(Object device, Object inode, FileTime changed) {
    }

    /** The folder's stamp; null when it is absent or the file system does not tell (not a Unix one). */
    public FolderStamp folderStamp(String relative) {
        try {
            Map<String, Object> a = Files.readAttributes(root.resolve(relative), "unix:dev,ino,ctime");
            return a.get("ctime") instanceof FileTime changed ? new FolderStamp(a.get("dev"), a.get("ino"), changed) : null;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The folder's real location (links resolved), to visit a folder reached by two names once; null when absent. */
    public Path realFolder(String relative) {
        try {
            Path real = root.resolve(relative).toRealPath();
            observer.looked(relative);
            return real;
        } catch (IOException e) {
            return null;
        }
    }

    /** As {@link #read}, a failure recorded as a problem and read as absent. */
    public Optional<String> read(String relative, ProbeProblems problems) {
        try {
            return read(relative);
        } catch (IOException e) {
            problems.cannotRead(display(relative), e);
            return Optional.empty();
        }
    }

    /** As {@link #readLine}, a failure recorded as a problem; null when absent. */
    public String readLine(String relative, ProbeProblems problems) {
        try {
            return readLine(relative).orElse(null);
        } catch (IOException e) {
            problems.cannotRead(display(relative), e);
            return null;
        }
    }

    /** As {@link #list(String)}, a failure recorded as a problem and read as empty. */
    public List<String> list(String relative, ProbeProblems problems) {
        try {
            return list(relative);
        } catch (IOException e) {
            problems.cannotRead(display(relative), e);
            return List.of();
        }
    }

    /** Whether the entry is a regular file reached without following a symbolic link. */
    public boolean isPlainFile(String relative) {
        return looked(relative, Files.isRegularFile(root.resolve(relative), LinkOption.NOFOLLOW_LINKS));
    }

    /** The last name of a symbolic link's target ({@code driver → ../../bus/pci/drivers/4xxx} gives {@code 4xxx}). */
    public Optional<String> linkTargetName(String relative) throws IOException {
        Path link = root.resolve(relative);
        if (!Files.isSymbolicLink(link)) {
            return Optional.empty();
        }
        observer.looked(relative);
        Path target = Files.readSymbolicLink(link).getFileName();
        return Optional.ofNullable(target).map(Path::toString);
    }
}
