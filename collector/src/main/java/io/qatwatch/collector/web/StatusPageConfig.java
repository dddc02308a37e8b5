package io.qatwatch.collector.web;

/** The status page ({@code statusPage:}); {@code publicUrl} is the link put in chat messages. */
public record StatusPageConfig(String publicUrl) {

    public static final StatusPageConfig DEFAULTS = new StatusPageConfig("http://127.0.0.1:8470/");
}
