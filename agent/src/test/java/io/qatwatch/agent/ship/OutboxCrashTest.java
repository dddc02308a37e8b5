package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real crashes: a child JVM appending to the outbox is killed with SIGKILL, then the outbox is reopened. */
class OutboxCrashTest {

    @TempDir
    Path dir;

    @Test
    void killedMidAppendTheTornRecordIsCutAndCountedAndEverythingElseIsIntact() throws Exception {
        Process child = start("torn");
        List<String> appended = new ArrayList<>();
        readUntil(child, "TORN", appended);
        kill(child);

        try (Outbox outbox = Outbox.open(dir, new OutboxSettings(64L << 20, 256L << 10, true, 5))) {
            assertThat(outbox.stats().corruptTotal()).isEqualTo(1);
            assertThat(OutboxTest.drain(outbox)).containsExactlyElementsOf(appended).hasSize(5);
        }
    }

    @Test
    void killedAtAnyMomentEveryAppendThatReturnedSurvives() throws Exception {
        Process child = start("steady");
        List<String> appended = new ArrayList<>();
        BufferedReader out = reader(child);
        for (String line = out.readLine(); line != null && appended.size() < 40; line = out.readLine()) {
            if (line.startsWith("APPENDED ")) {
                appended.add(line.split(" ")[2]);
            }
        }
        kill(child);

        try (Outbox outbox = Outbox.open(dir, new OutboxSettings(64L << 20, 256L << 10, true, 5))) {
            assertThat(outbox.stats().corruptTotal()).as("at most the record being written is torn").isLessThanOrEqualTo(1);
            List<String> recovered = OutboxTest.drain(outbox);
            assertThat(recovered).startsWith(appended.toArray(String[]::new));
            assertThat(recovered).doesNotHaveDuplicates();
        }
    }

    private Process start(String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                OutboxWriterProcess.class.getName(), dir.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static void readUntil(Process child, String marker, List<String> appended) throws IOException {
        BufferedReader out = reader(child);
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("APPENDED ")) {
                appended.add(line.split(" ")[2]);
            }
            if (line.equals(marker)) {
                return;
            }
        }
        throw new AssertionError("child exited before " + marker + "; exit " + child.exitValue());
    }

    private static BufferedReader reader(Process child) {
        return new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    }

    /** SIGKILL: no shutdown hook, no finally block, no flush. */
    private static void kill(Process child) throws InterruptedException {
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isEqualTo(137);
    }
}
