package io.qatwatch.bench.jmh;

import io.qatwatch.bench.SimulatedAgent;
import io.qatwatch.collector.window.BusinessCalendar;
import io.qatwatch.collector.window.CalendarConfig;
import io.qatwatch.collector.window.CreepAnalysis;
import io.qatwatch.collector.window.CreepSettings;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.NightKind;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.NightlyWindows;
import io.qatwatch.collector.window.TheilSen;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** One instance's 90 nights (20 databases): window assembly, the creep analysis, and the Theil–Sen fit alone. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WindowAnalysisBenchmark {

    private static final int NIGHTS = 90;

    private Instant now;
    private BusinessCalendar calendar;
    private WindowSettings settings;
    private List<DatabaseBackup> backups;
    private List<NightlyWindow> windows;
    private double[] days;
    private double[] margins;

    @Setup(Level.Trial)
    public void setUp() {
        now = Instant.now();
        calendar = CalendarConfig.builtIn().toCalendar();
        settings = new WindowSettings(false, false, NIGHTS);
        SimulatedAgent agent = new SimulatedAgent(11);
        backups = new ArrayList<>();
        for (BackupRecord b : agent.nightlyHistory(NIGHTS, SimulatedAgent.firstNight(now, NIGHTS), now)) {
            backups.add(new DatabaseBackup("sql11/MSSQLSERVER", b.databaseName(), b.databaseGuid(), b.type(),
                    b.copyOnly(), b.startedAt(), b.finishedAt(), b.backupSizeBytes(), b.compressedSizeBytes(),
                    b.compressionAlgorithm(), b.target(), false, b.sizeIsEstimate()));
        }
        windows = assembleWindows();
        days = new double[NIGHTS];
        margins = new double[NIGHTS];
        for (int i = 0; i < NIGHTS; i++) {
            days[i] = i;
            margins[i] = 480 - 0.7 * i + (i * 7919 % 13) - 6;
        }
    }

    @Benchmark
    public List<NightlyWindow> assembleWindows() {
        return NightlyWindows.build("sql11/MSSQLSERVER", backups, calendar, settings);
    }

    @Benchmark
    public Map<NightKind, CreepTrend> creepTrend() {
        return CreepAnalysis.analyse(windows, calendar, CreepSettings.DEFAULTS, now);
    }

    @Benchmark
    public TheilSen theilSenFit90() {
        return TheilSen.fit(days, margins);
    }
}
