package io.qatwatch.agent.probe;

import io.qatwatch.protocol.ProbeStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs the steps of a host probe one after the other and records how each went: its duration and the
 * problems it met. A step that throws is reported and replaced by its fallback; the next step still runs.
 */
public final class ProbeSteps {

    private final List<ProbeStatus> statuses = new ArrayList<>();
    private final String hint;

    /** @param hint what a person should check when a step fails, e.g. the folder given with {@code --root} */
    public ProbeSteps(String hint) {
        this.hint = hint;
    }

    public <T> T run(String name, T fallback, Function<ProbeProblems, T> step) {
        long started = System.nanoTime();
        ProbeProblems problems = new ProbeProblems();
        T result;
        try {
            result = step.apply(problems);
        } catch (RuntimeException e) {
            problems.add("probe failed: " + e);
            result = fallback;
        }
        long durationMs = (System.nanoTime() - started) / 1_000_000;
        statuses.add(problems.isEmpty()
                ? ProbeStatus.ok(name, durationMs)
                : ProbeStatus.failed(name, durationMs, problems.summary(), hint));
        return result;
    }

    /** True when the step of that name ran and met no problem. */
    public boolean ok(String name) {
        return statuses.stream().anyMatch(s -> s.name().equals(name) && s.ok());
    }

    public List<ProbeStatus> statuses() {
        return List.copyOf(statuses);
    }
}
