package io.qatwatch.agent.ship;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DeliveryDecisionTest {

    private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    @Test
    void acceptedAndDuplicateAreBothDelivered() {
        assertThat(DeliveryDecision.of(202, null, "{\"reportId\":\"r\",\"duplicate\":false}", NOW))
                .isEqualTo(new DeliveryDecision.Delivered(false));
        assertThat(DeliveryDecision.of(202, null, "{\"reportId\":\"r\",\"duplicate\":true}", NOW))
                .isEqualTo(new DeliveryDecision.Delivered(true));
    }

    @Test
    void badReportIsRefusedWithTheCollectorsMessageAndField() {
        DeliveryDecision d = DeliveryDecision.of(400, null, "{\"error\":\"is required\",\"field\":\"agent.name\"}", NOW);
        assertThat(d).isInstanceOfSatisfying(DeliveryDecision.Refused.class,
                r -> assertThat(r.reason()).isEqualTo("HTTP 400: is required (field agent.name)"));
        assertThat(DeliveryDecision.of(413, null, "too big", NOW)).isInstanceOf(DeliveryDecision.Refused.class);
        assertThat(DeliveryDecision.of(415, null, "", NOW)).isInstanceOf(DeliveryDecision.Refused.class);
    }

    @Test
    void timeoutsThrottlingAndServerErrorsAreRetried() {
        assertThat(DeliveryDecision.of(408, null, "", NOW)).isInstanceOf(DeliveryDecision.Retry.class);
        assertThat(DeliveryDecision.of(429, "7", "", NOW)).isEqualTo(new DeliveryDecision.Retry("HTTP 429", Duration.ofSeconds(7)));
        assertThat(DeliveryDecision.of(503, null, "<html>down</html>", NOW))
                .isEqualTo(new DeliveryDecision.Retry("HTTP 503: <html>down</html>", null));
    }

    @Test
    void aWrongTokenOrUrlIsTheAgentsSetupNotTheReport() {
        assertThat(DeliveryDecision.of(401, null, "{\"error\":\"unknown token\"}", NOW))
                .isEqualTo(new DeliveryDecision.Misconfigured("HTTP 401: unknown token"));
        assertThat(DeliveryDecision.of(403, null, "", NOW)).isInstanceOf(DeliveryDecision.Misconfigured.class);
        assertThat(DeliveryDecision.of(404, null, "", NOW)).isInstanceOf(DeliveryDecision.Misconfigured.class);
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDateAndCapped() {
        assertThat(DeliveryDecision.parseRetryAfter("120", NOW)).isEqualTo(Duration.ofMinutes(2));
        assertThat(DeliveryDecision.parseRetryAfter("Mon, 30 Nov 2026 07:00:30 GMT", NOW)).isEqualTo(Duration.ofSeconds(30));
        assertThat(DeliveryDecision.parseRetryAfter("Mon, 30 Nov 2026 06:00:00 GMT", NOW)).isEqualTo(Duration.ZERO);
        assertThat(DeliveryDecision.parseRetryAfter("999999", NOW)).isEqualTo(DeliveryDecision.MAX_RETRY_AFTER);
        assertThat(DeliveryDecision.parseRetryAfter("soon", NOW)).isNull();
        assertThat(DeliveryDecision.parseRetryAfter(null, NOW)).isNull();
    }
}
