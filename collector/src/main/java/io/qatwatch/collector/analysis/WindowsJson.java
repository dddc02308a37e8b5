package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetAnalysis.InstanceAnalysis;
import io.qatwatch.collector.window.CreepTrend;
import io.qatwatch.collector.window.JobOverlaps;
import io.qatwatch.collector.window.JobSchedules;
import io.qatwatch.collector.window.NightlyWindow;
import io.qatwatch.collector.window.SpillForecast;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * The body of {@code GET /api/v1/instances/{host}/{instance}/windows}: the instance's nightly windows with
 * their margins, the creep trend per kind of night, and spill forecasts of running backups.
 */
public final class WindowsJson {

    private WindowsJson() {
    }

    /** One instance's windows, trends and forecasts. */
    public static JsonObject of(InstanceAnalysis ia) {
        JsonArray windows = new JsonArray();
        for (NightlyWindow w : ia.windows()) {
            JsonArray dbs = new JsonArray();
            w.backups().forEach(b -> dbs.add(new JsonObject().put("database", b.database()).put("type", b.type())
                    .put("copyOnly", b.copyOnly()).put("startedAt", b.startedAt().toString())
                    .put("finishedAt", b.finishedAt().toString()).put("durationSeconds", b.durationSeconds())
                    .put("sizeBytes", b.sizeBytes()).put("compressionAlgorithm", b.compressionAlgorithm())
                    .put("target", b.target()).put("snapshot", b.snapshot())
                    .put("throughputMbps", b.snapshot() ? null : b.throughputMbps())));
            var activity = ia.instance().jobs();
            var planned = JobSchedules.plannedStart(activity.jobs(), w.businessEnd(), w.businessStart(), ia.calendar().zone());
            JsonArray jobs = new JsonArray();
            JobOverlaps.of(w, activity.jobs(), activity.runs()).forEach(o -> jobs.add(new JsonObject().put("jobId", o.jobId())
                    .put("job", o.jobName()).put("from", o.from().toString()).put("to", o.to().toString())
                    .put("minutes", o.minutes())));
            windows.add(new JsonObject().put("morning", w.morning().toString())
                    .put("plannedStart", planned.map(p -> p.at().toString()).orElse(null))
                    .put("plannedBy", planned.map(JobSchedules.PlannedStart::jobName).orElse(null))
                    .put("lateStartSeconds", planned.map(p -> java.time.Duration.between(p.at(), w.firstStart()).getSeconds())
                            .orElse(null))
                    .put("overlappingJobs", jobs)
                    .put("kind", w.kind().name().toLowerCase(Locale.ROOT))
                    .put("businessEnd", w.businessEnd().toString()).put("businessStart", w.businessStart().toString())
                    .put("firstStart", w.firstStart().toString()).put("lastFinish", w.lastFinish().toString())
                    .put("durationSeconds", w.durationSeconds()).put("marginSeconds", w.marginSeconds())
                    .put("breached", w.breached()).put("backups", dbs));
        }
        JsonArray trends = new JsonArray();
        for (CreepTrend t : ia.creep().values()) {
            JsonArray nights = new JsonArray();
            t.nights().forEach(n -> nights.add(new JsonObject().put("morning", n.morning().toString())
                    .put("marginMinutes", n.marginMinutes())));
            JsonArray drivers = new JsonArray();
            t.drivers().forEach(d -> drivers.add(new JsonObject().put("database", d.database())
                    .put("durationSlopeMinutesPerDay", d.durationSlopeMinutesPerDay())
                    .put("latestDurationMinutes", d.latestDurationMinutes())
                    .put("sizeGrowthPercentPerWeek", d.sizeGrowthPercentPerWeek())
                    .put("latestSizeBytes", d.latestSizeBytes())));
            trends.add(new JsonObject().put("kind", t.kind().name().toLowerCase(Locale.ROOT))
                    .put("slopeMinutesPerDay", t.slopeMinutesPerDay())
                    .put("projectedMarginMinutes", t.projectedMarginMinutes())
                    .put("safetyMarginMinutes", t.safetyMarginMinutes())
                    .put("forecastDate", t.forecastDate() == null ? null : t.forecastDate().toString())
                    .put("daysUntilForecast", t.daysUntilForecast())
                    .put("nights", nights).put("drivers", drivers));
        }
        JsonArray spills = new JsonArray();
        for (SpillForecast f : ia.spills()) {
            spills.add(new JsonObject().put("database", f.database()).put("startedAt", f.startedAt().toString())
                    .put("percentComplete", f.percentComplete()).put("elapsedSeconds", f.elapsedSeconds())
                    .put("predictedFinish", f.predictedFinish().toString()).put("tailSeconds", f.tailSeconds())
                    .put("predictedWindowEnd", f.predictedWindowEnd().toString())
                    .put("businessStart", f.businessStart().toString()).put("marginSeconds", f.marginSeconds())
                    .put("leadTimeSeconds", f.leadTimeSeconds()).put("spills", f.spills()));
        }
        return new JsonObject().put("host", ia.host().host()).put("instance", ia.instance().name())
                .put("calendar", ia.calendar().name()).put("zone", ia.calendar().zone().getId())
                .put("safetyMarginMinutes", ia.calendar().safetyMargin().toMinutes())
                .put("windows", windows).put("trends", trends).put("spillForecasts", spills);
    }
}
