package io.qatwatch.bench.jmh;

import io.qatwatch.bench.ReportTemplate;
import io.qatwatch.bench.SimulatedAgent;
import io.qatwatch.collector.influx.InfluxPoints;
import io.qatwatch.protocol.AgentReport;
import io.qatwatch.protocol.ReportJson;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Line protocol encoding: every InfluxDB point of one accepted report (2 backups, accelerator, host, agent). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class InfluxLinesBenchmark {

    private AgentReport report;
    private Instant receivedAt;

    @Setup(Level.Trial)
    public void setUp() {
        receivedAt = Instant.now();
        report = ReportJson.parse(ReportTemplate.of(new SimulatedAgent(3), receivedAt, "jmh").render(1));
    }

    @Benchmark
    public List<String> reportToLines() {
        return InfluxPoints.lines("sql3", "production", report, receivedAt);
    }
}
