package io.qatwatch.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

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
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
                    ROOT + "lib/qatwatch-agent.classlist",
                    ROOT + "qatwatch.cmd",
                    ROOT + "bin/prunsrv.exe",
                    ROOT + "install-agent.ps1",
                    ROOT + "uninstall-agent.ps1",
                    ROOT + "agent.example.yaml",
                    ROOT + "docs/install.md",
                    ROOT + "docs/sqlserver.md",
                    ROOT + "docs/probe.md",
                    ROOT + "docs/reporting-a-problem.md",
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
                    .replace("$state", "C:\\ProgramData\\qatwatch\\state")
                    .replace("$logs", "C:\\ProgramData\\qatwatch\\logs")
                    .replace("$LogDays", single(script, "\\[int] \\$LogDays = (\\d+)"));
            Class<?> arguments = Class.forName("io.qatwatch.agent.service.ServiceArguments", true, loader);
            Object parsed = arguments.getMethod("parse", List.class)
                    .invoke(null, new ArrayList<>(Arrays.asList(startParams.split(";"))));
            assertThat(arguments.getMethod("configFile").invoke(parsed).toString())
                    .isEqualTo("C:\\ProgramData\\qatwatch\\agent.yaml");
            // the agent prunes procrun's daily logs there (procrun never does)
            assertThat(arguments.getMethod("logDir").invoke(parsed).toString()).isEqualTo("C:\\ProgramData\\qatwatch\\logs");
            assertThat(arguments.getMethod("keepLogDays").invoke(parsed)).isEqualTo(30);
        }
    }

    /** The DLL name the script looks for in bin\ is the one the packaged mssql-jdbc loads for integratedSecurity. */
    @Test
    void installScriptNamesTheAuthDllOfThePackagedDriver(@TempDir Path dir) throws Exception {
        String script = new String(read(ROOT + "install-agent.ps1"), StandardCharsets.US_ASCII);
        Path jar = dir.resolve("qatwatch-agent.jar");
        Files.write(jar, read(ROOT + "lib/qatwatch-agent.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            // mssql-jdbc builds the name from these constants and os.arch: mssql-jdbc_auth-MAJOR.MINOR.PATCH.x64
            Class<?> version = Class.forName("com.microsoft.sqlserver.jdbc.SQLJdbcVersion", false, loader);
            String expected = "mssql-jdbc_auth-" + constant(version, "MAJOR") + "." + constant(version, "MINOR") + "."
                    + constant(version, "PATCH") + ".x64.dll";
            assertThat(single(script, "\\$authDll = '([^']+)'")).isEqualTo(expected);
            assertThat(Files.readString(Dist.REPO.resolve("docs/install.md"))).contains(expected);
        }
        // the JVM looks for it in bin\, where the script tells the admin to put it
        assertThat(script).contains("-Djava.library.path=$installDir\\bin;");
    }

    /** The zip's docs link only to files and headings the zip holds. */
    @Test
    void docsLinkOnlyToWhatTheZipHolds() throws IOException {
        try (ZipFile zip = new ZipFile(Dist.windowsZip().toFile())) {
            List<String> docs = Collections.list(zip.entries()).stream().map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".md")).toList();
            assertThat(docs).isNotEmpty();
            List<String> broken = new ArrayList<>();
            List<String> checked = new ArrayList<>();
            for (String doc : docs) {
                String text = new String(read(doc), StandardCharsets.UTF_8);
                Matcher link = Pattern.compile("\\]\\(([^)\\s]+)\\)").matcher(text);
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("[a-z]+:.*")) {
                        continue;
                    }
                    checked.add(target);
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    String entry = file.isEmpty() ? doc : Path.of(doc).resolveSibling(file).normalize().toString().replace('\\', '/');
                    if (zip.getEntry(entry) == null) {
                        broken.add(doc + ": " + target + " (no " + entry + " in the zip)");
                    } else if (hash >= 0 && !anchors(new String(read(entry), StandardCharsets.UTF_8)).contains(target.substring(hash + 1))) {
                        broken.add(doc + ": " + target + " (no such heading in " + entry + ")");
                    }
                }
            }
            assertThat(broken).isEmpty();
            assertThat(checked).contains("sqlserver.md", "#enrolling-an-agent");
        }
    }

    /** The Windows launcher reads the same JVM option variables as the Linux one, EXTRA after the defaults. */
    @Test
    void windowsLauncherHonoursTheSameJavaOptionVariables() throws IOException {
        String cmd = new String(read(ROOT + "qatwatch.cmd"), StandardCharsets.US_ASCII);
        String unix = Files.readString(Dist.REPO.resolve("qatwatch"));
        Pattern variable = Pattern.compile("QATWATCH_\\w*JAVA_OPTS");

        assertThat(variables(variable, cmd)).isEqualTo(variables(variable, unix));
        List<String> runs = cmd.lines().filter(line -> line.startsWith("\"%JAVA%\"")).toList();
        assertThat(runs).filteredOn(line -> line.contains("-jar \"%AGENT_JAR%\" %*")
                && line.contains("%QATWATCH_AGENT_JAVA_OPTS%"))
                .singleElement().asString().contains("%QATWATCH_AGENT_JAVA_OPTS% %QATWATCH_AGENT_EXTRA_JAVA_OPTS% -jar");
        assertThat(runs).filteredOn(line -> line.contains("-jar \"%COLLECTOR_JAR%\""))
                .singleElement().asString().contains("%QATWATCH_JAVA_OPTS% %QATWATCH_EXTRA_JAVA_OPTS% ",
                        "-Dqatwatch.agentJavaOpts=%QATWATCH_AGENT_JAVA_OPTS% %QATWATCH_AGENT_EXTRA_JAVA_OPTS%");
    }

    /**
     * tree-sitter's PowerShell grammar (npm: web-tree-sitter and tree-sitter-powershell, WebAssembly) parses the
     * scripts as the zip has them, when node and npm are here (./run-tests installs them). A real grammar, not
     * PowerShell itself: it finds syntax errors, not wrong cmdlets or arguments.
     */
    @Test
    void scriptsParseWithThePowerShellGrammar(@TempDir Path dir) throws IOException {
        assumeThat(Command.available("node") && Command.available("npm")).as("node and npm are installed").isTrue();
        Path grammar = Dist.DIR.resolve("powershell-grammar");
        if (!Files.isDirectory(grammar.resolve("node_modules/tree-sitter-powershell"))) {
            Files.createDirectories(grammar);
            Files.writeString(grammar.resolve("package.json"), "{\"name\": \"qatwatch-powershell-check\", \"private\": true}\n");
            Command.ok(grammar, "npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error",
                    "web-tree-sitter@0.25.10", "tree-sitter-powershell@0.26.4");
        }
        Files.copy(Path.of(System.getProperty("powershell.parse.script", "target/test-classes/powershell-parse.mjs")),
                grammar.resolve("powershell-parse.mjs"), StandardCopyOption.REPLACE_EXISTING);
        List<String> command = new ArrayList<>(List.of("node", "powershell-parse.mjs"));
        for (String name : List.of("install-agent.ps1", "uninstall-agent.ps1")) {
            command.add(Files.write(dir.resolve(name), read(ROOT + name)).toString());
        }
        // the grammar must see a real mistake, or a pass would mean nothing: the install script without its last '}'
        String script = new String(read(ROOT + "install-agent.ps1"), StandardCharsets.US_ASCII);
        command.add(Files.writeString(dir.resolve("broken.ps1"), script.substring(0, script.lastIndexOf('}'))).toString());

        Command parse = Command.run(grammar, Map.of(), command);

        assertThat(parse.output()).as(parse.output())
                .contains(dir.resolve("install-agent.ps1") + ": parses", dir.resolve("uninstall-agent.ps1") + ": parses",
                        dir.resolve("broken.ps1") + ": does not parse");
        assertThat(parse.output().lines().filter(line -> line.contains("syntax error") || line.contains(": missing")))
                .as(parse.output()).allMatch(line -> line.startsWith(dir.resolve("broken.ps1").toString()));
    }

    private static Object constant(Class<?> type, String name) throws ReflectiveOperationException {
        java.lang.reflect.Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(null);
    }

    private static Set<String> variables(Pattern pattern, String text) {
        Set<String> found = new TreeSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces as '-'. */
    private static Set<String> anchors(String markdown) {
        Set<String> anchors = new TreeSet<>();
        markdown.lines().filter(line -> line.matches("#{1,6} .*")).forEach(line -> anchors.add(
                line.replaceFirst("#+ ", "").strip().toLowerCase(java.util.Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-')));
        return anchors;
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
