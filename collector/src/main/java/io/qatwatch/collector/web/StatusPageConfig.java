package io.qatwatch.collector.web;

import java.util.List;

/**
 * The status page ({@code statusPage:}).
 *
 * @param publicUrl      the page's URL as people reach it: the link put in chat messages
 * @param notice         a line shown at the top of every page (e.g. "Staging collector"), or null
 * @param sessionMinutes how long a browser stays signed in after giving a read token to the sign-in page
 * @param openOnLoopback whether a browser on this machine sees the page without a token
 */
public record StatusPageConfig(String publicUrl, String notice, Integer sessionMinutes, Boolean openOnLoopback) {

    public static final StatusPageConfig DEFAULTS = new StatusPageConfig("http://127.0.0.1:8470/", null, 480, true);

    /** A page at {@code publicUrl} with the other defaults. */
    public StatusPageConfig(String publicUrl) {
        this(publicUrl, DEFAULTS.notice, DEFAULTS.sessionMinutes, DEFAULTS.openOnLoopback);
    }

    /** This section with what the file left out taken from the defaults. */
    public StatusPageConfig withDefaults() {
        return new StatusPageConfig(publicUrl == null ? DEFAULTS.publicUrl : publicUrl, notice == null || notice.isBlank() ? null : notice,
                sessionMinutes == null ? DEFAULTS.sessionMinutes : sessionMinutes,
                openOnLoopback == null ? DEFAULTS.openOnLoopback : openOnLoopback);
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (sessionMinutes != null && (sessionMinutes < 1 || sessionMinutes > 43_200)) {
            problems.add("statusPage.sessionMinutes: must be 1 to 43200 (30 days), was " + sessionMinutes);
        }
    }
}
