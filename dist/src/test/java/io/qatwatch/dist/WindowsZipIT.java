package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Windows agent zip: what is in it, that prunsrv.exe is the x64 build, and that the scripts fit the jar. */
class WindowsZipIT {

    private static final String ROOT = "qatwatch-agent/";

    @Test
    void holdsTheJarLauncherProcrunScriptsSampleConfigAndLicences() throws IOException {
        try (ZipFile zip = new ZipFile(Dist.windowsZip().toFile())) {
            List<String> files = Collections.list(zip.entries()).stream()
                    .filter(entry -> !entry.isDirectory())
                    .map(ZipEntry::getName)
                    .toList();

            assertThat(files).containsExactlyInAnyOrder(
                    ROOT + "lib/qatwatch-agent.jar",
                    ROOT + "qatwatch.cmd",
                    ROOT + "bin/prunsrv.exe",
                    ROOT + "install-agent.ps1",
                    ROOT + "uninstall-agent.ps1",
                    ROOT + "agent.example.yaml",
                    ROOT + "docs/install.md",
                    ROOT + "licenses/commons-daemon-LICENSE.txt",
                    ROOT + "licenses/commons-daemon-NOTICE.txt");
        }
    }

    @Test
    void prunsrvIsTheX64Executable() throws IOException {
        byte[] exe = read(ROOT + "bin/prunsrv.exe");
        ByteBuffer pe = ByteBuffer.wrap(exe).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(new String(exe, 0, 2, StandardCharsets.US_ASCII)).isEqualTo("MZ");
        int header = pe.getInt(0x3C);
        assertThat(new String(exe, header, 4, StandardCharsets.US_ASCII)).isEqualTo("PE\0\0");
        assertThat(pe.getShort(header + 4) & 0xFFFF).as("IMAGE_FILE_MACHINE_AMD64").isEqualTo(0x8664);
    }

    @ParameterizedTest
    @ValueSource(strings = {"install-agent.ps1", "uninstall-agent.ps1"})
    void scriptsAreWellFormedAsciiWithWindowsLineEndings(String name) throws IOException {
        byte[] bytes = read(ROOT + name);
        String script = new String(bytes, StandardCharsets.US_ASCII);

        // Windows PowerShell 5.1 reads a file without BOM in the ANSI code page: keep the scripts ASCII
        for (byte b : bytes) {
            assertThat(b & 0xFF).as("non-ASCII byte in " + name).isLessThan(0x80);
        }
        assertThat(script.replace("\r\n", "")).doesNotContain("\n");
        assertThat(script).startsWith("#Requires -Version 5.1\r\n#Requires -RunAsAdministrator\r\n");
        assertThat(script).contains("Set-StrictMode -Version 3.0", "$ErrorActionPreference = 'Stop'");
        assertThat(PowerShellCheck.problems(script)).isEmpty();
    }

    @Test
    void installScriptRegistersTheServiceClassTheJarHasWithArgumentsItAccepts(@TempDir Path dir) throws Exception {
        String script = new String(read(ROOT + "install-agent.ps1"), StandardCharsets.US_ASCII);
        Path jar = dir.resolve("qatwatch-agent.jar");
        Files.write(jar, read(ROOT + "lib/qatwatch-agent.jar"));

        String serviceClass = single(script, "\\$serviceClass = '([\\w.]+)'");
        assertThat(script).contains("--StartMode=jvm", "--StartMethod=start", "--StopMode=jvm", "--StopMethod=stop",
                "--StartClass=$serviceClass", "--StopClass=$serviceClass");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            Class<?> service = Class.forName(serviceClass, false, loader);
            for (String name : List.of("start", "stop")) {
                Method method = service.getMethod(name, String[].class);
                assertThat(Modifier.isStatic(method.getModifiers())).as(name + " is static").isTrue();
                assertThat(method.getReturnType()).as(name + " returns void").isEqualTo(void.class);
            }

            // procrun splits --StartParams at ';' and passes the pieces to start(String[])
            String startParams = single(script, "\"--StartParams=([^\"]+)\"")
                    .replace("$config", "C:\\ProgramData\\qatwatch\\agent.yaml")
                    .replace("$state", "C:\\ProgramData\\qatwatch\\state");
            Class<?> arguments = Class.forName("io.qatwatch.agent.service.ServiceArguments", true, loader);
            Object parsed = arguments.getMethod("parse", List.class)
                    .invoke(null, new ArrayList<>(Arrays.asList(startParams.split(";"))));
            assertThat(arguments.getMethod("configFile").invoke(parsed).toString())
                    .isEqualTo("C:\\ProgramData\\qatwatch\\agent.yaml");
        }
    }

    private static String single(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as(regex).isTrue();
        return matcher.group(1);
    }

    private static byte[] read(String entry) throws IOException {
        try (ZipFile zip = new ZipFile(Dist.windowsZip().toFile())) {
            ZipEntry found = zip.getEntry(entry);
            assertThat(found).as(entry).isNotNull();
            try (InputStream in = zip.getInputStream(found)) {
                return in.readAllBytes();
            }
        }
    }
}
