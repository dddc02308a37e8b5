package io.qatwatch.collector.notify;

import io.qatwatch.collector.alert.Severity;
import java.util.List;
import java.util.Set;

/**
 * One chat channel. Secrets (webhook URLs carry their token; SMTP passwords) come from a file or an
 * environment variable: {@code urlFile}/{@code urlEnv}, {@code passwordFile}/{@code passwordEnv}; an inline
 * {@code url} is accepted for tokens-free endpoints and tests.
 *
 * @param type        slack, teams, googlechat, mattermost, webhook or email
 * @param minSeverity the least severe alert this channel hears
 * @param tokenFile   a bearer token sent as {@code Authorization}, from a file: the generic webhook's, or the bot token of
 *                    a slack or mattermost channel with {@code channel}
 * @param startTls    email only: REQUIRED (default), OPTIONAL or DISABLED
 * @param hostGroups  the channel hears only alerts of hosts in these host groups (or with one of {@code tags});
 *                    both empty: every alert
 * @param tags        agent tags ({@code key=value}, the value a pattern, or a bare key) whose hosts' alerts it hears
 * @param channel     slack and mattermost: the channel id to post to through the platform's API with a bot token
 *                    ({@code tokenFile}/{@code tokenEnv}) instead of an incoming webhook, so that updates and the
 *                    resolution reply in the thread of the first message
 */
public record ChannelConfig(
        String type,
        String name,
        String url,
        String urlFile,
        String urlEnv,
        String tokenFile,
        String tokenEnv,
        Integer timeoutSeconds,
        Severity minSeverity,
        String smtpHost,
        Integer smtpPort,
        String startTls,
        String username,
        String passwordFile,
        String passwordEnv,
        String from,
        List<String> to,
        List<String> hostGroups,
        List<String> tags,
        String channel) {

    /** Slack's Web API method that posts a message and answers its {@code ts}. */
    public static final String SLACK_POST_MESSAGE = "https://slack.com/api/chat.postMessage";

    /** The channel types this build knows. */
    public static final Set<String> TYPES = Set.of("slack", "teams", "googlechat", "mattermost", "webhook", "email");

    public ChannelConfig {
        name = name == null ? type : name;
        timeoutSeconds = timeoutSeconds == null ? 10 : timeoutSeconds;
        minSeverity = minSeverity == null ? Severity.INFO : minSeverity;
        smtpPort = smtpPort == null ? 587 : smtpPort;
        startTls = startTls == null ? "REQUIRED" : startTls;
        to = to == null ? List.of() : List.copyOf(to);
        hostGroups = hostGroups == null ? List.of() : List.copyOf(hostGroups);
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** A channel that hears every alert. */
    public ChannelConfig(String type, String name, String url, String urlFile, String urlEnv, String tokenFile,
            String tokenEnv, Integer timeoutSeconds, Severity minSeverity, String smtpHost, Integer smtpPort,
            String startTls, String username, String passwordFile, String passwordEnv, String from, List<String> to) {
        this(type, name, url, urlFile, urlEnv, tokenFile, tokenEnv, timeoutSeconds, minSeverity, smtpHost, smtpPort,
                startTls, username, passwordFile, passwordEnv, from, to, null, null, null);
    }

    /** This channel heard only by the alerts of hosts in {@code groups} or carrying one of {@code hostTags}. */
    public ChannelConfig routedTo(List<String> groups, List<String> hostTags) {
        return new ChannelConfig(type, name, url, urlFile, urlEnv, tokenFile, tokenEnv, timeoutSeconds, minSeverity,
                smtpHost, smtpPort, startTls, username, passwordFile, passwordEnv, from, to, groups, hostTags, channel);
    }

    /**
     * A Slack ({@code chat.postMessage} at {@code url}) or Mattermost ({@code url} is the server) channel posting to
     * {@code channelId} with the bot token in the environment variable {@code tokenEnv}.
     */
    public static ChannelConfig botApi(String type, String name, String url, String channelId, String tokenEnv) {
        return new ChannelConfig(type, name, url, null, null, null, tokenEnv, null, null, null, null, null, null, null, null,
                null, null, null, null, channelId);
    }

    /** True when the channel posts through the platform's API (a bot token and a channel id), not a webhook. */
    public boolean api() {
        return channel != null;
    }

    /** A webhook channel whose URL is given inline (tests, token-free endpoints). */
    public static ChannelConfig webhook(String type, String url) {
        return new ChannelConfig(type, null, url, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null);
    }

    public void validate(String key, List<String> problems) {
        for (int i = 0; i < tags.size(); i++) {
            if (!tags.get(i).matches("[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}(=[^,]{1,128})?")) {
                problems.add(key + ".tags[" + i + "]: '" + tags.get(i) + "' is not key=value or a bare tag key");
            }
        }
        if (type == null || !TYPES.contains(type)) {
            problems.add(key + ".type: '" + type + "' is not a channel type; use one of slack, teams, googlechat, mattermost, webhook, email");
            return;
        }
        if (timeoutSeconds <= 0) {
            problems.add(key + ".timeoutSeconds: must be more than 0, got " + timeoutSeconds);
        }
        if (type.equals("email")) {
            if (smtpHost == null || smtpHost.isBlank()) {
                problems.add(key + ".smtpHost: missing; name the SMTP relay");
            }
            if (from == null || !from.contains("@")) {
                problems.add(key + ".from: missing or not an address");
            }
            if (to.isEmpty()) {
                problems.add(key + ".to: empty; list at least one recipient");
            }
            if (!Set.of("REQUIRED", "OPTIONAL", "DISABLED").contains(startTls)) {
                problems.add(key + ".startTls: '" + startTls + "' must be REQUIRED, OPTIONAL or DISABLED");
            }
            if (username != null && passwordFile == null && passwordEnv == null) {
                problems.add(key + ".passwordFile: a username is set but no passwordFile or passwordEnv");
            }
            return;
        }
        int given = (url == null ? 0 : 1) + (urlFile == null ? 0 : 1) + (urlEnv == null ? 0 : 1);
        if (channel != null) {
            if (!type.equals("slack") && !type.equals("mattermost")) {
                problems.add(key + ".channel: only slack and mattermost post to a channel through their API; "
                        + type + " takes a webhook URL");
                return;
            }
            if (channel.isBlank() || !channel.matches("[A-Za-z0-9_\\-]{1,64}")) {
                problems.add(key + ".channel: '" + channel + "' is not a channel id (Slack: C0123ABCDEF; Mattermost: "
                        + "the 26-character id)");
            }
            if (tokenFile == null && tokenEnv == null) {
                problems.add(key + ".tokenFile: posting through the " + type + " API needs a bot token: give tokenFile or tokenEnv");
            }
            if (type.equals("slack") && given == 0) {
                return;
            }
            if (type.equals("mattermost") && given != 1) {
                problems.add(key + ".url: give the Mattermost server's base URL (https://mattermost.example.com) as url, "
                        + "urlFile or urlEnv");
                return;
            }
        }
        if (given != 1) {
            problems.add(key + ".url: give exactly one of url, urlFile, urlEnv (the webhook URL holds a secret: prefer urlFile)");
        } else if (url != null && !url.startsWith("https://") && !url.startsWith("http://")) {
            problems.add(key + ".url: '" + url + "' is not an http(s) URL");
        }
    }
}
