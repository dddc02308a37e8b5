package io.qatwatch.collector.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.qatwatch.collector.store.ReportStore.BackupDelta;
import io.qatwatch.collector.store.ReportStore.InstanceHistory;
import io.qatwatch.collector.store.ReportStore.InstanceKey;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the alert stage reads of the store besides the fleet's rows and heads: each evaluation the backups stored since
 * a position ({@link #backupsAfter}); when it rebuilds an instance, its history (backups, accelerator changes, job
 * activity), one instance at a time or a batch at its cold start ({@link #histories}).
 */
final class StageReads {

    private final Database db;
    private final Database.Kind kind;

    StageReads(Database db) {
        this.db = db;
        this.kind = db.kind();
    }

    List<StoredBackup> backups(String host, String instance, Instant since) throws SQLException, IOException {
        return db.read(c -> {
            try (PreparedStatement s = c.prepareStatement(instanceBackups())) {
                s.setString(1, host);
                s.setString(2, instance);
                s.setLong(3, since.toEpochMilli());
                List<StoredBackup> out = new ArrayList<>();
                BackupRows.Shared shared = new BackupRows.Shared();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new StoredBackup(host, instance, BackupRows.read(rs, 1, shared)));
                    }
                }
                return out;
            }
        });
    }

    /**
     * A few queries per call over all the keys' hosts ({@code host IN (...)}) rather than four to six per instance (on
     * SQLite the backups still by instance, see {@link #readBackups}); rows of instances not asked for are skipped.
     */
    List<InstanceHistory> histories(List<InstanceKey> keys, Instant since, Instant acceleratorSince)
            throws SQLException, IOException {
        Map<String, Map<String, List<BackupRecord>>> backups = new HashMap<>();
        Map<String, Map<String, List<AcceleratorChange>>> accelerators = new HashMap<>();
        Map<String, Map<String, JobActivity>> jobs = new HashMap<>();
        for (InstanceKey k : keys) {
            backups.computeIfAbsent(k.host(), h -> new HashMap<>()).put(k.instance(), new ArrayList<>());
            accelerators.computeIfAbsent(k.host(), h -> new HashMap<>()).put(k.instance(), new ArrayList<>());
            if (k.jobs()) {
                jobs.computeIfAbsent(k.host(), h -> new HashMap<>()).put(k.instance(), JobActivity.NONE);
            }
        }
        List<String> hosts = new ArrayList<>(new java.util.TreeSet<>(backups.keySet()));
        List<String> jobHosts = new ArrayList<>(new java.util.TreeSet<>(jobs.keySet()));
        db.read(c -> {
            for (int from = 0; from < hosts.size(); from += SqlValues.IN_CHUNK) {
                List<String> chunk = hosts.subList(from, Math.min(hosts.size(), from + SqlValues.IN_CHUNK));
                readBackups(c, chunk, since, backups);
                readAccelerators(c, chunk, acceleratorSince, accelerators);
            }
            for (int from = 0; from < jobHosts.size(); from += SqlValues.IN_CHUNK) {
                JobActivityReads.readBatch(c, jobHosts.subList(from, Math.min(jobHosts.size(), from + SqlValues.IN_CHUNK)), since, jobs);
            }
            return null;
        });
        List<InstanceHistory> out = new ArrayList<>(keys.size());
        for (InstanceKey k : keys) {
            out.add(new InstanceHistory(k, backups.get(k.host()).get(k.instance()),
                    accelerators.get(k.host()).get(k.instance()), k.jobs() ? jobs.get(k.host()).get(k.instance()) : null));
        }
        return out;
    }

    /** Each key's accelerator changes since {@code since}, one query per chunk of their hosts. */
    List<List<AcceleratorChange>> acceleratorChanges(List<InstanceKey> keys, Instant since) throws SQLException, IOException {
        Map<String, Map<String, List<AcceleratorChange>>> accelerators = new HashMap<>();
        for (InstanceKey k : keys) {
            accelerators.computeIfAbsent(k.host(), h -> new HashMap<>()).put(k.instance(), new ArrayList<>());
        }
        List<String> hosts = new ArrayList<>(new java.util.TreeSet<>(accelerators.keySet()));
        db.read(c -> {
            for (int from = 0; from < hosts.size(); from += SqlValues.IN_CHUNK) {
                readAccelerators(c, hosts.subList(from, Math.min(hosts.size(), from + SqlValues.IN_CHUNK)), since, accelerators);
            }
            return null;
        });
        List<List<AcceleratorChange>> out = new ArrayList<>(keys.size());
        for (InstanceKey k : keys) {
            out.add(accelerators.get(k.host()).get(k.instance()));
        }
        return out;
    }

    /** One instance's backups since a time, oldest first, as {@link BackupRows} reads them. */
    private String instanceBackups() {
        return "SELECT " + BackupRows.columns(kind)
                + " FROM backups WHERE host = ? AND instance = ? AND started_at >= ? ORDER BY started_at, backup_set_id";
    }

    /**
     * Each asked instance's backups of {@code hosts} that started at or after {@code since}, into {@code into}. SQLite:
     * one statement run per instance (a query costs it microseconds; host and instance read on every row would cost more).
     * PostgreSQL: one query for all the hosts, the round trips being what costs.
     */
    private void readBackups(Connection c, List<String> hosts, Instant since,
                             Map<String, Map<String, List<BackupRecord>>> into) throws SQLException {
        if (kind == Database.Kind.SQLITE) {
            try (PreparedStatement s = c.prepareStatement(instanceBackups())) {
                for (String host : hosts) {
                    for (Map.Entry<String, List<BackupRecord>> e : into.get(host).entrySet()) {
                        BackupRows.Shared shared = new BackupRows.Shared();
                        s.setString(1, host);
                        s.setString(2, e.getKey());
                        s.setLong(3, since.toEpochMilli());
                        try (ResultSet rs = s.executeQuery()) {
                            while (rs.next()) {
                                e.getValue().add(BackupRows.read(rs, 1, shared));
                            }
                        }
                    }
                }
            }
            return;
        }
        try (PreparedStatement s = c.prepareStatement("SELECT host, instance, " + BackupRows.columns(kind) + " FROM backups WHERE "
                + SqlValues.in(hosts) + " AND started_at >= ? ORDER BY host, instance, started_at, backup_set_id")) {
            SqlValues.bind(s, hosts);
            s.setLong(hosts.size() + 1, since.toEpochMilli());
            try (ResultSet rs = s.executeQuery()) {
                String host = null;
                String instance = null;
                List<BackupRecord> list = null;
                BackupRows.Shared shared = null;
                while (rs.next()) {
                    String h = rs.getString(1);
                    String i = rs.getString(2);
                    if (!h.equals(host) || !i.equals(instance)) {
                        host = h;
                        instance = i;
                        list = into.get(h).get(i);
                        shared = new BackupRows.Shared();
                    }
                    if (list != null) {
                        list.add(BackupRows.read(rs, 3, shared));
                    }
                }
            }
        }
    }

    /**
     * Each asked instance's accelerator changes, as {@link #acceleratorChanges} has them: read from its first on (an
     * instance has a handful, one per change), so the one in force at {@code since} is the last before it.
     */
    private void readAccelerators(Connection c, List<String> hosts, Instant since,
                                  Map<String, Map<String, List<AcceleratorChange>>> into) throws SQLException, IOException {
        String written = kind == Database.Kind.POSTGRESQL ? "id" : "rowid";
        try (PreparedStatement s = c.prepareStatement("SELECT host, instance, changed_at, new_json FROM instance_changes"
                + " WHERE " + SqlValues.in(hosts) + " AND section = 'accelerators' ORDER BY host, instance, changed_at, " + written)) {
            SqlValues.bind(s, hosts);
            try (ResultSet rs = s.executeQuery()) {
                String host = null;
                String instance = null;
                List<AcceleratorChange> list = null;
                long beforeAt = 0;
                String before = null;
                while (rs.next()) {
                    String h = rs.getString(1);
                    String i = rs.getString(2);
                    if (!h.equals(host) || !i.equals(instance)) {
                        addBefore(list, beforeAt, before);
                        host = h;
                        instance = i;
                        list = into.get(h).get(i);
                        before = null;
                    }
                    if (list == null) {
                        continue;
                    }
                    long at = rs.getLong(3);
                    if (at < since.toEpochMilli()) {
                        beforeAt = at;
                        before = rs.getString(4);
                    } else {
                        addBefore(list, beforeAt, before);
                        before = null;
                        list.add(new AcceleratorChange(Instant.ofEpochMilli(at), accelerators(rs.getString(4))));
                    }
                }
                addBefore(list, beforeAt, before);
            }
        }
    }

    /** The change in force at the period's start, first in the instance's list (null: none, or added already). */
    private static void addBefore(List<AcceleratorChange> list, long at, String json) throws IOException {
        if (list != null && json != null) {
            list.add(0, new AcceleratorChange(Instant.ofEpochMilli(at), accelerators(json)));
        }
    }

    private static List<AcceleratorStatus> accelerators(String json) throws IOException {
        return SqlValues.readList(json, new TypeReference<List<AcceleratorStatus>>() { });
    }

    List<AcceleratorChange> acceleratorChanges(String host, String instance, Instant since)
            throws SQLException, IOException {
        // the state in force at since, then every change after it (instance_changes_at covers both); two changes
        // reported at one instant keep the order they were written in
        String written = kind == Database.Kind.POSTGRESQL ? "id" : "rowid";
        return db.read(c -> {
            List<AcceleratorChange> out = new ArrayList<>();
            try (PreparedStatement before = c.prepareStatement("SELECT changed_at, new_json FROM instance_changes"
                    + " WHERE host = ? AND instance = ? AND section = 'accelerators' AND changed_at < ?"
                    + " ORDER BY changed_at DESC, " + written + " DESC LIMIT 1");
                 PreparedStatement after = c.prepareStatement("SELECT changed_at, new_json FROM instance_changes"
                    + " WHERE host = ? AND instance = ? AND section = 'accelerators' AND changed_at >= ?"
                    + " ORDER BY changed_at, " + written)) {
                for (PreparedStatement s : List.of(before, after)) {
                    s.setString(1, host);
                    s.setString(2, instance);
                    s.setLong(3, since.toEpochMilli());
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            out.add(new AcceleratorChange(Instant.ofEpochMilli(rs.getLong(1)),
                                    SqlValues.readList(rs.getString(2), new TypeReference<List<AcceleratorStatus>>() { })));
                        }
                    }
                }
            }
            return out;
        });
    }

    /**
     * SQLite: positions are rowids, handed out in commit order by its one writer. PostgreSQL: several collectors
     * commit out of the order their rows were numbered, so a position is a transaction id instead: every backup row
     * carries the id of the transaction that inserted it, and a read goes up to just below its snapshot's
     * {@code xmin}, below which every transaction has ended. A backup committed late by a slow transaction is read
     * late, never skipped. On PostgreSQL only the backups of the hosts {@code only} selects are read; SQLite (one
     * collector) reads every host's.
     */
    BackupDelta backupsAfter(long after, Instant since, HostSelection only) throws SQLException, IOException {
        return backupsBetween(after, -1, since, only);
    }

    /**
     * As {@link #backupsAfter}, up to position {@code bound} instead of the newest ({@code bound} negative: the newest): what
     * a restart that restored instances from summaries of several positions reads, each stretch once.
     */
    BackupDelta backupsBetween(long after, long bound, Instant since, HostSelection only) throws SQLException, IOException {
        return kind == Database.Kind.POSTGRESQL ? db.read(c -> backupsAfterPostgres(c, after, bound, since, only)) : db.read(c -> {
            long upTo = bound;
            if (upTo < 0) {
                try (PreparedStatement s = c.prepareStatement("SELECT COALESCE(max(rowid), 0) FROM backups");
                     ResultSet rs = s.executeQuery()) {
                    upTo = rs.next() ? rs.getLong(1) : 0;
                }
            }
            List<StoredBackup> out = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("""
                    SELECT * FROM backups WHERE rowid > ? AND rowid <= ? AND started_at >= ? ORDER BY rowid""")) {
                s.setLong(1, after);
                s.setLong(2, upTo);
                s.setLong(3, since.toEpochMilli());
                out.addAll(storedBackups(s));
            }
            return new BackupDelta(upTo, out);
        });
    }

    /** One snapshot (repeatable read) for the horizon and the rows below it. */
    private static BackupDelta backupsAfterPostgres(Connection c, long after, long bound, Instant since, HostSelection only)
            throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            long upTo = bound;
            if (upTo < 0) {
                try (PreparedStatement s = c.prepareStatement(
                        "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 1");
                     ResultSet rs = s.executeQuery()) {
                    rs.next();
                    upTo = rs.getLong(1);
                }
            }
            List<StoredBackup> out = new ArrayList<>();
            if (after < upTo) {
                try (PreparedStatement s = c.prepareStatement("SELECT * FROM backups WHERE tx > ? AND tx <= ? AND started_at >= ?"
                        + (only.all() ? "" : " AND " + HostSliceColumn.hostIn("host"))
                        + " ORDER BY tx, host, instance, backup_set_id")) {
                    s.setLong(1, after);
                    s.setLong(2, upTo);
                    s.setLong(3, since.toEpochMilli());
                    if (!only.all()) {
                        HostSliceColumn.bind(s, 4, only);
                    }
                    out.addAll(storedBackups(s));
                }
            }
            c.commit();
            return new BackupDelta(upTo, out);
        } finally {
            c.setAutoCommit(true);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
    }

    /** The backups a bound query over {@code backups} returns, in its order. */
    private static List<StoredBackup> storedBackups(PreparedStatement s) throws SQLException {
        List<StoredBackup> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.add(new StoredBackup(rs.getString("host"), rs.getString("instance"), BackupsTable.read(rs)));
            }
        }
        return out;
    }
}
