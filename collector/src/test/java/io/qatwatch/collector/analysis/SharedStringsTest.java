package io.qatwatch.collector.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The fleet's shared strings: an equal string is answered by the first one given, however many there are. */
class SharedStringsTest {

    @Test
    void answersEveryEqualStringWithTheFirstOneGivenThroughGrowth() {
        SharedStrings shared = new SharedStrings();
        List<String> first = new ArrayList<>();
        for (int n = 0; n < 10_000; n++) {
            String guid = new UUID(n >> 3, n).toString();
            first.add(guid);
            assertThat(shared.share(guid)).isSameAs(guid);
        }
        for (int n = 0; n < 10_000; n++) {
            String copy = new String(first.get(n).toCharArray());
            assertThat(shared.share(copy)).as("guid %s", n).isSameAs(first.get(n)).isNotSameAs(copy);
        }
        assertThat(shared.size()).isEqualTo(10_000);
        assertThat(shared.share(null)).isNull();
        assertThat(shared.share("")).isEmpty();
        assertThat(shared.share(new String(""))).isSameAs(shared.share(""));
    }
}
