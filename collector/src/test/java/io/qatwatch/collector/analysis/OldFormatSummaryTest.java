package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.CONFIG;
import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.INSTANCES;
import static io.qatwatch.collector.analysis.GeneratedFleetGoldenTest.MORNING;
import static io.qatwatch.collector.analysis.InstanceSummaryRestartTest.answers;
import static io.qatwatch.collector.analysis.InstanceSummaryRestartTest.same;
import static io.qatwatch.collector.analysis.InstanceSummaryRestartTest.visible;
import static io.qatwatch.collector.analysis.InstanceSummaryRestartTest.withoutSummaries;
import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.HostSelection;
import io.qatwatch.collector.store.ReportStore.InstanceSummary;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.collector.testing.StoreKinds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A collector upgraded over a store whose summaries an older release wrote: a summary of format 3 (points and
 * compression series as varints, before format 4 held them packed), of format 4 (packed number by number, before
 * format 6 packed them field by field) or of format 6 (without the series' statistics, before format 7 held them) is not
 * read with the new layout but rebuilt from the instance's rows, and the stage answers as a start from the rows; the
 * rebuilt instance is summarised again in the current format. {@code src/test/resources/summaries/gen0-format3.b64} is
 * the summary the release at b1b3a5b (format 3) wrote for gen0 of {@link GeneratedFleetGoldenTest}'s fleet at its first
 * refresh, at {@code MORNING}; {@code gen0-format4.b64} the one the release at 7bce54e (format 4) wrote,
 * {@code gen0-format6.b64} the one the release at 32a1a17 (format 6) wrote.
 */
class OldFormatSummaryTest {

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 6})
    void aSummaryOfAFormerFormatIsRebuiltFromTheRowsAndTheStageAnswersAsFromTheRows(int format, @TempDir Path dir)
            throws Exception {
        Path file = Path.of("src/test/resources/summaries/gen0-format" + format + ".b64");
        byte[] old = Base64.getMimeDecoder().decode(Files.readString(file).strip());
        try (Database db = StoreKinds.open(Database.Kind.SQLITE, dir)) {
            SqlReportStore store = new SqlReportStore(db);
            new GeneratedFleetGoldenTest().fill(store);
            new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(store, MORNING);
            InstanceSummary now = gen0(store);
            assertThat(now.format()).isEqualTo(InstanceSummaryCodec.FORMAT).isEqualTo(7);
            assertThat(now.body()).as("the body the current format writes for the same instance at the same moment")
                    .isNotEqualTo(old);
            store.writeSummaries(List.of(new InstanceSummary(now.host(), now.instance(), format, now.position(),
                    now.sectionsSeq(), now.writtenAt(), old)));

            LiveFleet restart = new LiveFleet(CONFIG.analysis(), h -> Set.of());
            LiveFleet.Refresh fromSummaries = restart.refresh(store, MORNING);
            LiveFleet.Refresh fromRows = new LiveFleet(CONFIG.analysis(), h -> Set.of()).refresh(withoutSummaries(store),
                    MORNING);
            same(visible(answers(fromSummaries.analysis())), visible(answers(fromRows.analysis())), "a start from rows",
                    MORNING);
            assertThat(restart.summaryCounts().refused()).as("gen0's summary of format %s", format).isEqualTo(1);
            assertThat(restart.summaryCounts().restored()).as("every other summarised instance").isEqualTo(INSTANCES - 2);
            assertThat(fromSummaries.rebuilt()).as("gen0, and gen1 (never summarised: its night runs past the morning)")
                    .isEqualTo(2);
            assertThat(gen0(store).format()).as("gen0 summarised again").isEqualTo(InstanceSummaryCodec.FORMAT);
            assertThat(gen0(store).body()).isEqualTo(now.body());
        }
    }

    private static InstanceSummary gen0(SqlReportStore store) throws Exception {
        List<InstanceSummary> out = new ArrayList<>();
        store.summaries(HostSelection.ALL, x -> {
            if (x.host().equals("gen0")) {
                out.add(x);
            }
        });
        assertThat(out).hasSize(1);
        return out.get(0);
    }
}
