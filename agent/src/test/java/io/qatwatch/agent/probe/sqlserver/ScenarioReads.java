package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.AgentInfo;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A scenario whose answers change from read to read, read by the probe in turn and stored by the collector's store. */
final class ScenarioReads {

    private ScenarioReads() {
    }

    /**
     * Reads every section once at each of {@code times} (the clock set to it first), carrying each history's mark from
     * read to read as the daemon does, and stores each read as one report of {@code host} received at that time.
     *
     * @return the snapshots, one per read
     */
    static List<SqlInstanceSnapshot> readAndStore(JdbcSqlInstanceProbe probe, ReadClock clock, List<Instant> times,
                                                  SqlReportStore store, String host) throws Exception {
        List<SqlInstanceSnapshot> out = new ArrayList<>();
        HistoryMarks marks = HistoryMarks.NONE;
        for (Instant at : times) {
            clock.now = at;
            SqlProbeResult r = probe.probeAfter(SqlScenarios.ALL, marks);
            SqlInstanceSnapshot s = r.snapshot();
            out.add(s);
            marks = new HistoryMarks(s.backupHighWaterMark(), s.jobHistoryHighWaterMark(), s.commandLogHighWaterMark(),
                    s.restoreHighWaterMark());
            store.store(host, new AgentReport(AgentReport.SCHEMA_VERSION, "r-" + at.getEpochSecond(), at,
                    new AgentInfo(host, "test", 1, 0, 0, 0), null, null, null, List.of(s), r.probes()), at);
        }
        return out;
    }
}
