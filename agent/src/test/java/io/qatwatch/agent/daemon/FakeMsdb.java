package io.qatwatch.agent.daemon;

import io.qatwatch.agent.probe.sqlserver.SqlInstanceProbe;
import io.qatwatch.agent.probe.sqlserver.SqlProbeResult;
import io.qatwatch.agent.probe.sqlserver.SqlSection;
import io.qatwatch.protocol.ProbeStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A SQL Server instance for daemon tests that cannot reach one: {@code total} rows of backup history,
 * handed out in pages above the high-water mark exactly as the probe contract says. Records every
 * high-water mark it was asked with.
 */
final class FakeMsdb implements SqlInstanceProbe {

    private final String name;
    private final int total;
    private final int pageSize;
    final AtomicInteger calls = new AtomicInteger();
    final List<Long> askedAfter = new CopyOnWriteArrayList<>();
    volatile String nameOverride;

    FakeMsdb(String name, int total, int pageSize) {
        this.name = name;
        this.total = total;
        this.pageSize = pageSize;
    }

    @Override
    public SqlProbeResult probe(Set<SqlSection> sections, Long afterBackupSetId) {
        calls.incrementAndGet();
        Instant now = Instant.now();
        List<BackupRecord> page = null;
        Long mark = afterBackupSetId;
        boolean more = false;
        if (sections.contains(SqlSection.BACKUP_HISTORY)) {
            askedAfter.add(afterBackupSetId == null ? -1L : afterBackupSetId);
            long from = afterBackupSetId == null ? 1 : afterBackupSetId + 1;
            long to = Math.min(total, from + pageSize - 1);
            page = new ArrayList<>();
            for (long id = from; id <= to; id++) {
                Instant start = Instant.parse("2026-11-01T01:00:00Z").plus(Duration.ofMinutes(id));
                page.add(new BackupRecord(id, "db" + (id % 3), null, "D", false, start, start.plusSeconds(30), true,
                        1_000_000 + id, 400_000L, "QAT_DEFLATE", true, null, null, null, "DISK", "LOCAL"));
            }
            mark = to >= from ? Long.valueOf(to) : afterBackupSetId;
            more = to < total;
        }
        String reported = nameOverride != null ? nameOverride : name;
        SqlInstanceSnapshot snapshot = new SqlInstanceSnapshot(reported, now, null, null, null, null, page,
                sections.contains(SqlSection.RUNNING_BACKUPS) ? List.of() : null, null, mark);
        return new SqlProbeResult(snapshot, List.of(ProbeStatus.ok("sqlserver:" + name + "/backup-history", 2)), more);
    }
}
