package io.qatwatch.collector.notify.email;

import io.qatwatch.collector.alert.Severity;
import io.qatwatch.collector.dispatch.Delivery;
import io.qatwatch.collector.dispatch.Notification;
import io.qatwatch.collector.dispatch.Notifier;
import io.qatwatch.collector.notify.MessageText;
import io.qatwatch.collector.notify.MessageText.Markup;
import io.vertx.core.Future;
import io.vertx.ext.mail.MailClient;
import io.vertx.ext.mail.MailMessage;
import java.util.List;

/** Email through an SMTP relay (STARTTLS by default): the title as subject, the full text as body. */
public final class EmailNotifier implements Notifier {

    private final String name;
    private final Severity minSeverity;
    private final MailClient client;
    private final String from;
    private final List<String> to;

    public EmailNotifier(String name, Severity minSeverity, MailClient client, String from, List<String> to) {
        this.name = name;
        this.minSeverity = minSeverity;
        this.client = client;
        this.from = from;
        this.to = List.copyOf(to);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Severity minSeverity() {
        return minSeverity;
    }

    /** The first mail of a group is the thread its later mails reply to: its Message-ID is the thread id. */
    @Override
    public Future<Delivery> send(Notification n) {
        return client.sendMail(message(n, from, to))
                .map(r -> n.reply() || r.getMessageID() == null ? Delivery.ok() : Delivery.ok(bracketed(r.getMessageID())))
                .otherwise(e -> Delivery.failed(true, null, name + ": SMTP " + e.getMessage()));
    }

    /**
     * The mail a user reads; a reply carries {@code In-Reply-To} and {@code References} naming the group's first
     * mail, so mail clients thread it.
     */
    public static MailMessage message(Notification n, String from, List<String> to) {
        MailMessage m = new MailMessage().setFrom(from).setTo(to).setSubject("qatwatch " + MessageText.title(n))
                .setText(MessageText.full(n, Markup.PLAIN));
        if (n.reply()) {
            m.addHeader("In-Reply-To", n.threadId()).addHeader("References", n.threadId());
        }
        return m;
    }

    private static String bracketed(String messageId) {
        return messageId.startsWith("<") ? messageId : "<" + messageId + ">";
    }
}
