package io.qatwatch.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a real program (dpkg-deb, systemd-analyze, the packaged launcher) and keeps its exit code and merged output. */
record Command(int exitCode, String output) {

    static Command run(Path workDir, Map<String, String> env, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            return new Command(process.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Command run(Path workDir, String... command) {
        return run(workDir, Map.of(), List.of(command));
    }

    /** Output of a command that must succeed. */
    static String ok(Path workDir, String... command) {
        Command result = run(workDir, command);
        if (result.exitCode != 0) {
            throw new AssertionError(String.join(" ", command) + " exited " + result.exitCode + ":\n" + result.output);
        }
        return result.output;
    }

    static boolean available(String program) {
        return run(Path.of("."), "sh", "-c", "command -v " + program).exitCode == 0;
    }
}
