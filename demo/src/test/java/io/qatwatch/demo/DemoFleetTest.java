package io.qatwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.demo.SimulatedServer.Backup;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The demo's story holds whatever the time of day: checked at instants spread over a day. */
class DemoFleetTest {

    private static DemoFleet.Member member(DemoFleet fleet, String host) {
        return fleet.members.stream().filter(m -> m.host().name.equals(host)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2026-12-01T00:00:00Z", "2026-12-01T05:29:59Z", "2026-12-01T05:30:00Z", "2026-12-01T13:45:00Z",
            "2026-12-06T23:59:00Z", "2027-03-28T01:30:00Z"})
    void theStoryHoldsAtAnyTimeOfDay(String at) {
        Instant now = Instant.parse(at);
        DemoFleet fleet = DemoFleet.at(Clock.fixed(now, ZoneOffset.UTC));
        LocalTime day = now.atOffset(fleet.businessHours).toLocalTime();
        LocalTime night = now.atOffset(fleet.beforeOpening).toLocalTime();
        assertThat(day).isBetween(LocalTime.of(10, 30), LocalTime.of(11, 29, 59));
        assertThat(night).isBetween(LocalTime.of(4, 30), LocalTime.of(5, 29, 59));

        // creep: the nightly window of demo-sql-qat01 ends about 2 minutes later every night, still before opening
        SimulatedServer qat = member(fleet, "demo-sql-qat01").server();
        LocalDateTime today = now.atOffset(fleet.businessHours).toLocalDate().atTime(DemoFleet.OPENING);
        long marginToday = Duration.between(windowEnd(qat, today, now), today).toMinutes();
        long marginWeekAgo = Duration.between(windowEnd(qat, today.minusDays(7), now), today.minusDays(7)).toMinutes();
        assertThat(marginToday).isBetween(75L, 90L);
        assertThat(marginWeekAgo - marginToday).isBetween(13L, 15L);

        // spill: the Warehouse full on demo-sql-amd01 runs now and, at its pace, ends after opening
        List<Map<String, Object>> running = member(fleet, "demo-sql-amd01").server().running();
        assertThat(running).singleElement().satisfies(r -> {
            assertThat(r).containsEntry("database_name", "Warehouse").containsEntry("command", "BACKUP DATABASE");
            double pct = ((Number) r.get("percent_complete")).doubleValue();
            long elapsed = ((Number) r.get("total_elapsed_time")).longValue();
            LocalDateTime predicted = now.atOffset(fleet.beforeOpening).toLocalDateTime()
                    .plusNanos((long) (elapsed * (100 - pct) / pct * 1_000_000));
            assertThat(predicted.toLocalTime()).isAfter(DemoFleet.OPENING).isBefore(LocalTime.of(9, 0));
        });

        // breach: last night's copy-only full on the secondary ended 35 minutes into business hours
        SimulatedServer secondary = member(fleet, "demo-sql-ag02").server();
        assertThat(windowEnd(secondary, today, now)).isEqualTo(today.plusMinutes(35));
        assertThat(member(fleet, "demo-sql-ag01").server().backups()).isEmpty();
    }

    /** The last finish of the finished full backups of the night that ends at {@code morning}. */
    private static LocalDateTime windowEnd(SimulatedServer server, LocalDateTime morning, Instant now) {
        return server.backups().stream()
                .filter(b -> b.type().equals("D") && b.start().isAfter(morning.minusHours(12)) && b.start().isBefore(morning))
                .filter(b -> !b.finish().toInstant(server.offset).isAfter(now))
                .map(Backup::finish).max(LocalDateTime::compareTo).orElseThrow();
    }
}
