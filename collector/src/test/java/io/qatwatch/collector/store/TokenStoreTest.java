package io.qatwatch.collector.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.testing.StoreKinds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/** Token checks answered from memory: a wrong secret never passes, a revoke takes effect (at once here, soon from outside). */
class TokenStoreTest {

    private static final Instant AT = Instant.parse("2026-11-30T06:15:01Z");

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aCachedTokenStillNeedsItsSecretAndARevokeHereEndsItAtOnce(Database.Kind kind) throws Exception {
        try (Database db = StoreKinds.open(kind, data)) {
            TokenStore tokens = new TokenStore(db);
            String token = tokens.add("sql01", TokenStore.Kind.AGENT, AT);
            assertThat(tokens.authenticateCached(token, System.nanoTime())).as("not read yet: ask the database").isEmpty();
            assertThat(tokens.authenticate(token)).map(TokenStore.TokenInfo::name).contains("sql01");
            assertThat(tokens.authenticateCached(token, System.nanoTime())).contains(tokens.authenticate(token));

            String wrongSecret = token.substring(0, token.length() - 4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
            assertThat(tokens.authenticateCached(wrongSecret, System.nanoTime())).contains(Optional.empty());
            assertThat(tokens.authenticateCached("not a token", System.nanoTime())).contains(Optional.empty());

            assertThat(tokens.revoke("sql01", AT.plusSeconds(1))).isEqualTo(1);
            assertThat(tokens.authenticate(token)).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Database.Kind.class)
    void aRevokeByAnotherProcessEndsTheTokenWithinTheCacheTime(Database.Kind kind) throws Exception {
        Duration cacheFor = Duration.ofMillis(300);
        StoreConfig store = StoreKinds.config(kind);
        try (Database db = StoreKinds.open(store, data); Database cli = StoreKinds.open(store, data)) {
            TokenStore collector = new TokenStore(db, cacheFor);
            String token = collector.add("sql01", TokenStore.Kind.AGENT, AT);
            assertThat(collector.authenticate(token)).isPresent();

            new TokenStore(cli).revoke("sql01", AT.plusSeconds(1));
            long revokedAt = System.nanoTime();
            assertThat(collector.authenticateCached(token, revokedAt)).as("still cached").map(Optional::isPresent)
                    .contains(true);
            assertThat(collector.authenticateCached(token, revokedAt + cacheFor.toNanos() + 1)).as("too old: ask again")
                    .isEmpty();
            Thread.sleep(cacheFor.toMillis() + 50);
            assertThat(collector.authenticate(token)).isEmpty();
        }
    }
}
