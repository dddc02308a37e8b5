package io.qatwatch.agent.probe;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What went wrong during one probe (an unreadable file, a malformed registry line), kept so the probe can go on. */
public final class ProbeProblems {

    static final int MAX_SUMMARY_CHARS = 3000;

    private final List<String> problems = new ArrayList<>();

    public void add(String problem) {
        problems.add(problem);
    }

    /** Records a failed read of {@code where} (a path as the host names it, or a registry key). */
    public void cannotRead(String where, IOException e) {
        problems.add("cannot read " + where + ": " + reason(e));
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    public List<String> list() {
        return List.copyOf(problems);
    }

    /** The problems as one line for {@code probes[].error}. */
    public String summary() {
        String all = String.join("; ", problems);
        // The wire format bounds probes[].error; the first problems say what to look at.
        return all.length() <= MAX_SUMMARY_CHARS ? all
                : all.substring(0, MAX_SUMMARY_CHARS) + "... (" + problems.size() + " problems in all)";
    }

    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "not found";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        String reason = e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason() : e.getMessage();
        if (reason == null || reason.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
    }
}
