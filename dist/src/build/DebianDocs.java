import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes the documentation files Debian policy asks of every package, gzip -9n compressed (lintian reads the
 * "max compression" flag from the gzip header, which java.util.zip's GZIPOutputStream leaves at 0):
 * {@code OUT/changelog.gz}, the native package's changelog, and {@code OUT/qatwatch.1.gz}, the man page.
 * Run by the dist build as a single-file program: {@code java DebianDocs.java MAVEN_VERSION MAINTAINER MAN_PAGE OUT}.
 */
public final class DebianDocs {

    private DebianDocs() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: java DebianDocs.java MAVEN_VERSION MAINTAINER MAN_PAGE OUT_DIR");
        }
        String version = debianVersion(args[0]);
        Path out = Files.createDirectories(Path.of(args[3]));
        Files.write(out.resolve("changelog.gz"), gzip(changelog(args[0], version, args[1], ZonedDateTime.now(ZoneOffset.UTC))));
        Files.write(out.resolve("qatwatch.1.gz"), gzip(Files.readAllBytes(Path.of(args[2]))));
    }

    /**
     * The package version jdeb writes for a Maven version: a snapshot's "-SNAPSHOT" becomes "~snapshot", which
     * sorts before the release (a "-" would start a Debian revision). The dist tests compare it with the field.
     */
    static String debianVersion(String mavenVersion) {
        if (mavenVersion.matches("[0-9][0-9.]*-SNAPSHOT")) {
            return mavenVersion.replace("-SNAPSHOT", "~snapshot");
        }
        if (mavenVersion.matches("[0-9][0-9.]*")) {
            return mavenVersion;
        }
        throw new IllegalArgumentException(mavenVersion + ": only N.N.N and N.N.N-SNAPSHOT versions have a known Debian spelling");
    }

    private static byte[] changelog(String mavenVersion, String version, String maintainer, ZonedDateTime built) {
        String date = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ENGLISH).format(built);
        boolean snapshot = mavenVersion.endsWith("-SNAPSHOT");
        String text = "qatwatch (" + version + ") " + (snapshot ? "UNRELEASED" : "unstable") + "; urgency=medium\n\n"
                + (snapshot
                        ? "  * Development snapshot " + mavenVersion + ", built from the qatwatch source\n"
                          + "    repository; its history lists the changes.\n"
                        : "  * qatwatch " + mavenVersion + "; the source repository's history lists the changes.\n")
                + "\n -- " + maintainer + "  " + date + "\n";
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** RFC 1952 with no name and no time stamp (gzip -n), best compression and XFL 2 (gzip -9), OS 3 (Unix). */
    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, 3});
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(data);
        deflater.finish();
        byte[] buffer = new byte[8192];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        CRC32 crc = new CRC32();
        crc.update(data);
        writeLittleEndian(out, (int) crc.getValue());
        writeLittleEndian(out, data.length);
        return out.toByteArray();
    }

    private static void writeLittleEndian(ByteArrayOutputStream out, int value) {
        for (int i = 0; i < 4; i++) {
            out.write(value >>> (8 * i));
        }
    }
}
