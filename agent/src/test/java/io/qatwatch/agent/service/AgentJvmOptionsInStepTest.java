package io.qatwatch.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The agent's JVM options are written three times: the Linux launcher ({@code qatwatch}), the Windows launcher
 * ({@code qatwatch.cmd}) and the Windows service ({@code install/windows/install-agent.ps1}, procrun's {@code --Jvm*}
 * arguments). The footprint figures in docs/benchmarks.md are measured with the Linux launcher's, so the other two
 * must carry the same options, less what only applies on Linux (glibc's heap trimming) and what a Windows service
 * needs of its own (the library path for mssql-jdbc's authentication DLL, the file encoding, procrun's log format).
 */
class AgentJvmOptionsInStepTest {

    private static final Path ROOT = Path.of("..");

    /** glibc's malloc trimming: the JVM ignores it elsewhere, so the Windows files leave it out. */
    private static final Set<String> LINUX_ONLY = Set.of("-XX:TrimNativeHeapInterval=300000");

    @Test
    void theWindowsLauncherCarriesTheLinuxLaunchersOptions() throws IOException {
        assertThat(cmd()).isEqualTo(linuxWindowsShare());
    }

    @Test
    void theWindowsServiceCarriesTheLinuxLaunchersOptions() throws IOException {
        assertThat(service()).isEqualTo(linuxWindowsShare());
    }

    private static Set<String> linuxWindowsShare() throws IOException {
        Matcher m = Pattern.compile("(?s)\\nAGENT_JAVA_OPTS_DEFAULT=\"(.*?)\"").matcher(read("qatwatch"));
        assertThat(m.find()).as("AGENT_JAVA_OPTS_DEFAULT in qatwatch").isTrue();
        Set<String> options = split(m.group(1).replace("\\\n", " "), "\\s+");
        assertThat(options).containsAll(LINUX_ONLY);
        options.removeAll(LINUX_ONLY);
        return options;
    }

    private static Set<String> cmd() throws IOException {
        Matcher m = Pattern.compile("set \"QATWATCH_AGENT_JAVA_OPTS=([^\"]*)\"").matcher(read("qatwatch.cmd"));
        assertThat(m.find()).as("QATWATCH_AGENT_JAVA_OPTS default in qatwatch.cmd").isTrue();
        return split(m.group(1), "\\s+");
    }

    /** procrun's --JvmOptions (split at ';') and its heap and stack arguments, as the JVM options they stand for. */
    private static Set<String> service() throws IOException {
        String ps1 = read("install/windows/install-agent.ps1");
        Matcher options = Pattern.compile("\"--JvmOptions=([^\"]*)\\$cdsOptions\"").matcher(ps1);
        assertThat(options.find()).as("--JvmOptions in install-agent.ps1").isTrue();
        Set<String> out = split(options.group(1), ";");
        out.removeIf(o -> o.startsWith("-Djava.library.path=") || o.startsWith("-Dfile.encoding=")
                || o.startsWith("-Dorg.slf4j.simpleLogger."));
        out.add("-Xms" + procrun(ps1, "JvmMs") + "m");
        Matcher maxHeap = Pattern.compile("\\[int\\] \\$MaxHeapMB = (\\d+)").matcher(ps1);
        assertThat(maxHeap.find()).as("MaxHeapMB's default in install-agent.ps1").isTrue();
        assertThat(procrun(ps1, "JvmMx")).isEqualTo("$MaxHeapMB");
        out.add("-Xmx" + maxHeap.group(1) + "m");
        out.add("-Xss" + procrun(ps1, "JvmSs") + "k");
        return out;
    }

    private static String procrun(String ps1, String name) {
        Matcher m = Pattern.compile("\"--" + name + "=([^\"]*)\"").matcher(ps1);
        assertThat(m.find()).as("--%s in install-agent.ps1", name).isTrue();
        return m.group(1);
    }

    private static Set<String> split(String options, String separator) {
        return new TreeSet<>(Arrays.stream(options.trim().split(separator)).filter(s -> !s.isBlank()).toList());
    }

    private static String read(String file) throws IOException {
        return Files.readString(ROOT.resolve(file));
    }
}
