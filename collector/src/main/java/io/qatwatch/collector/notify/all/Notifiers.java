package io.qatwatch.collector.notify.all;

import io.qatwatch.collector.config.Secrets;
import io.qatwatch.collector.dispatch.Notifier;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.notify.RoutedNotifier;
import io.qatwatch.collector.notify.WebhookClient;
import io.qatwatch.collector.notify.WebhookNotifier;
import io.qatwatch.collector.notify.email.EmailNotifier;
import io.qatwatch.collector.notify.googlechat.GoogleChatThreads;
import io.qatwatch.collector.notify.mattermost.MattermostApiPost;
import io.qatwatch.collector.notify.mattermost.MattermostMessage;
import io.qatwatch.collector.notify.slack.SlackApiPost;
import io.qatwatch.collector.notify.slack.SlackMessage;
import io.qatwatch.collector.notify.teams.TeamsCard;
import io.qatwatch.collector.notify.webhook.WebhookPayload;
import io.vertx.core.Vertx;
import io.vertx.ext.mail.LoginOption;
import io.vertx.ext.mail.MailClient;
import io.vertx.ext.mail.MailConfig;
import io.vertx.ext.mail.StartTLSOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Builds the configured channels, one line per type. Reads secrets: call it off the event loop. */
public final class Notifiers {

    /** Connections a channel keeps to its server at most (HTTP/1.1: one request each at a time). */
    public static final int CONNECTIONS_PER_CHANNEL = 4;

    private Notifiers() {
    }

    /** One notifier per channel; {@code channels} must have passed validation. */
    public static List<Notifier> create(Vertx vertx, List<ChannelConfig> channels, Secrets secrets) {
        List<Notifier> out = new ArrayList<>();
        for (int i = 0; i < channels.size(); i++) {
            ChannelConfig c = channels.get(i);
            String key = "alerts.channels[" + i + "].";
            // a client, and so a connection pool, per channel: a channel whose server hangs holds its own connections,
            // never another channel's, even on the same host and port
            WebClient web = WebClient.create(vertx, new WebClientOptions().setUserAgent("qatwatch-collector")
                    .setFollowRedirects(false).setConnectTimeout(c.timeoutSeconds() * 1000),
                    new PoolOptions().setHttp1MaxSize(CONNECTIONS_PER_CHANNEL));
            out.add(routed(c, channel(vertx, web, c, key, secrets)));
        }
        return out;
    }

    /** The channel as configured, heard only by its host groups' and tags' alerts when it names any. */
    private static Notifier routed(ChannelConfig c, Notifier channel) {
        return c.hostGroups().isEmpty() && c.tags().isEmpty() ? channel : new RoutedNotifier(channel, c.hostGroups(), c.tags());
    }

    private static Notifier channel(Vertx vertx, WebClient web, ChannelConfig c, String key, Secrets secrets) {
        if (c.type().equals("email")) {
            return email(vertx, c, secrets.resolve(key + "password", null, c.passwordFile(), c.passwordEnv()));
        }
        String url = secrets.resolve(key + "url", c.url(), c.urlFile(), c.urlEnv());
        String token = secrets.resolve(key + "token", null, c.tokenFile(), c.tokenEnv());
        Duration timeout = Duration.ofSeconds(c.timeoutSeconds());
        if (c.api()) {
            return c.type().equals("slack")
                    ? new WebhookNotifier(c.name(), c.minSeverity(), new SlackApiPost(c.name(), new WebhookClient(web,
                            url == null ? ChannelConfig.SLACK_POST_MESSAGE : url, timeout, token), c.channel())::send)
                    : new WebhookNotifier(c.name(), c.minSeverity(), new MattermostApiPost(c.name(), new WebhookClient(web,
                            url.replaceAll("/+$", "") + "/api/v4/posts", timeout, token), c.channel())::send);
        }
        WebhookClient client = new WebhookClient(web, url, timeout, token);
        return switch (c.type()) {
            case "slack" -> new WebhookNotifier(c.name(), c.minSeverity(), client, SlackMessage::payload);
            case "teams" -> new WebhookNotifier(c.name(), c.minSeverity(), client, TeamsCard::payload);
            case "googlechat" -> new WebhookNotifier(c.name(), c.minSeverity(), new GoogleChatThreads(c.name(),
                    new WebhookClient(web, GoogleChatThreads.withReplyOption(url), timeout, token))::send);
            case "mattermost" -> new WebhookNotifier(c.name(), c.minSeverity(), client, MattermostMessage::payload);
            case "webhook" -> new WebhookNotifier(c.name(), c.minSeverity(), client, WebhookPayload::payload);
            default -> throw new IllegalArgumentException(key + "type: unknown channel type " + c.type());
        };
    }

    private static Notifier email(Vertx vertx, ChannelConfig c, String password) {
        MailConfig mc = new MailConfig().setHostname(c.smtpHost()).setPort(c.smtpPort())
                .setStarttls(StartTLSOptions.valueOf(c.startTls()))
                .setConnectTimeout(c.timeoutSeconds() * 1000)
                .setLogin(c.username() == null ? LoginOption.DISABLED : LoginOption.REQUIRED);
        if (c.username() != null) {
            mc.setUsername(c.username()).setPassword(password);
        }
        return new EmailNotifier(c.name(), c.minSeverity(), MailClient.create(vertx, mc), c.from(), c.to());
    }
}
