package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.web.SilencesApi;
import io.qatwatch.collector.web.server.RequestFields.BadRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The request fields people send: what is kept, what is refused, and which field a refusal names. */
class RequestFieldsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aNoteKeepsItsNewlinesAndLosesItsEndsWhileAShortFieldRefusesEveryControlCharacter() throws BadRequest {
        JsonObject json = new JsonObject().put("note", "  line one\nline two  ").put("host", "sql\n01");
        assertThat(RequestFields.text(json, "note", 100, true)).isEqualTo("line one\nline two");
        assertThatThrownBy(() -> RequestFields.text(json, "host", 100, false))
                .isInstanceOf(BadRequest.class).hasMessage("contains a control character")
                .extracting(e -> ((BadRequest) e).field()).isEqualTo("host");
        assertThatThrownBy(() -> RequestFields.text(new JsonObject().put("note", "a\tb"), "note", 100, true))
                .hasMessage("contains a control character");
        assertThat(RequestFields.text(new JsonObject().put("note", "   "), "note", 100, true)).isNull();
        assertThatThrownBy(() -> RequestFields.text(new JsonObject().put("note", 5), "note", 100, true))
                .hasMessage("must be a string");
        assertThatThrownBy(() -> RequestFields.text(new JsonObject().put("note", "x".repeat(101)), "note", 100, true))
                .hasMessage("is longer than 100 characters");
    }

    @Test
    void theBodyMustBeAnObjectAndMayBeEmptyOnlyWhereAllowed() throws BadRequest {
        assertThat(RequestFields.object(Buffer.buffer(), null)).isEmpty();
        assertThatThrownBy(() -> RequestFields.object(Buffer.buffer(), "empty body: send a JSON object"))
                .hasMessage("empty body: send a JSON object");
        assertThatThrownBy(() -> RequestFields.object(Buffer.buffer("[1]"), null)).hasMessage("body is not a JSON object");
        assertThatThrownBy(() -> RequestFields.object(Buffer.buffer("{"), null)).hasMessage("body is not a JSON object");
    }

    @Test
    void minutesAreWholeAndPositive() throws BadRequest {
        assertThat(RequestFields.minutesFrom(new JsonObject(), NOW)).isNull();
        assertThat(RequestFields.minutesFrom(new JsonObject().put("minutes", 90), NOW)).isEqualTo(NOW.plus(Duration.ofMinutes(90)));
        assertThatThrownBy(() -> RequestFields.minutesFrom(new JsonObject().put("minutes", 0), NOW))
                .hasMessage("must be a whole number of minutes, at least 1");
        assertThatThrownBy(() -> RequestFields.minutesFrom(new JsonObject().put("minutes", "10"), NOW))
                .hasMessage("must be a whole number of minutes, at least 1");
    }

    @Test
    void aSilenceNamesTheFieldItRefuses() throws BadRequest {
        SilencesApi.Request ok = SilenceRequests.parse(Buffer.buffer(new JsonObject().put("host", "sql-fra-*")
                .put("comment", "patching").put("minutes", 60).encode()), NOW);
        assertThat(ok.endsAt()).isEqualTo(NOW.plus(Duration.ofHours(1)));
        assertThat(refusal(new JsonObject().put("comment", "why").put("minutes", 5))).isEqualTo("rule");
        assertThat(refusal(new JsonObject().put("host", "a").put("minutes", 5))).isEqualTo("comment");
        assertThat(refusal(new JsonObject().put("host", "a").put("comment", "c"))).isEqualTo("endsAt");
        assertThat(refusal(new JsonObject().put("host", "a").put("comment", "c").put("endsAt", "tomorrow"))).isEqualTo("endsAt");
        assertThat(refusal(new JsonObject().put("host", "a").put("comment", "c").put("endsAt", NOW.minusSeconds(1).toString())))
                .isEqualTo("endsAt");
        assertThat(refusal(new JsonObject().put("host", "a").put("comment", "c")
                .put("endsAt", NOW.plus(Duration.ofDays(91)).toString()))).isEqualTo("endsAt");
        assertThat(refusal(new JsonObject().put("host", "a").put("comment", "c\nd").put("minutes", 5))).isEqualTo("comment");
        assertThatThrownBy(() -> SilenceRequests.parse(Buffer.buffer(), NOW)).hasMessageStartingWith("empty body");
    }

    private static String refusal(JsonObject body) {
        try {
            SilenceRequests.parse(Buffer.buffer(body.encode()), NOW);
        } catch (BadRequest e) {
            return e.field();
        }
        throw new AssertionError("accepted " + body);
    }
}
