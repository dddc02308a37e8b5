package io.qatwatch.collector.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Tests that read one {@link GroupedFleet}, started once for the class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OnGroupedFleet {

    protected GroupedFleet fleet;

    @BeforeAll
    void startTheFleet(@TempDir Path data) throws Exception {
        fleet = GroupedFleet.start(data);
    }

    @AfterAll
    void stopTheFleet() throws Exception {
        if (fleet != null) {
            fleet.close();
        }
    }
}
