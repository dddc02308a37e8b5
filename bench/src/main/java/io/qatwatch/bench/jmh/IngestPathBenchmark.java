package io.qatwatch.bench.jmh;

import io.qatwatch.bench.ReportTemplate;
import io.qatwatch.bench.SimulatedAgent;
import io.qatwatch.collector.store.Database;
import io.qatwatch.collector.store.ReportStore;
import io.qatwatch.collector.store.SqlReportStore;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import io.qatwatch.protocol.ReportValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** The per-report work of ingest, piece by piece: parse, validate, store one report in SQLite. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IngestPathBenchmark {

    private ReportTemplate template;
    private byte[] body;
    private Instant now;
    private Path dir;
    private Database db;
    private ReportStore store;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        now = Instant.now();
        template = ReportTemplate.of(new SimulatedAgent(7), now, "jmh");
        body = template.render(1);
        dir = Files.createTempDirectory("qatwatch-jmh-store");
        db = Database.open(dir);
        store = new SqlReportStore(db);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        db.close();
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public AgentReport parseReport() {
        return ReportJson.parse(body);
    }

    /** The schema check as ingest runs it, on the body's bytes (checking the record would first serialise it). */
    @Benchmark
    public byte[] validateReport() {
        ReportValidator.check(body, now);
        return body;
    }

    /** A new report (new id, two new backup rows) each call: parse plus one SQLite transaction. */
    @Benchmark
    public ReportStore.Stored parseAndStoreReport() throws Exception {
        return store.store(template.host(), ReportJson.parse(template.render(++sequence)), now);
    }
}
