package io.qatwatch.collector.dispatch;

import java.util.Set;

/**
 * Where an alert's host belongs: its host group and its tags ({@code key=value}), which channels route by and
 * silences match. The alert stage answers it from the latest evaluation.
 */
public interface HostDirectory {

    /** Knows no groups and no tags: channels without routes hear everything, group and tag matchers match nothing. */
    HostDirectory NONE = new HostDirectory() {
        @Override
        public String group(String host) {
            return null;
        }

        @Override
        public Set<String> tags(String host) {
            return Set.of();
        }
    };

    /** The host's group, or null. */
    String group(String host);

    /** The host's tags, {@code key=value} each; empty when none. */
    Set<String> tags(String host);
}
