package io.qatwatch.collector.analysis;

import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.chain.LogChain;
import io.qatwatch.collector.compression.CompressionSamples;
import io.qatwatch.collector.compression.QatModes;
import io.qatwatch.collector.store.AcceleratorChange;
import io.qatwatch.collector.store.JobActivity;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.protocol.SqlInstanceSnapshot;
import io.qatwatch.protocol.SqlInstanceSnapshot.AcceleratorStatus;
import io.qatwatch.protocol.SqlInstanceSnapshot.AsymmetricKeyInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import io.qatwatch.protocol.SqlInstanceSnapshot.CertificateInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.ConfigOption;
import io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo;
import io.qatwatch.protocol.SqlInstanceSnapshot.RunningBackup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One instance the alert stage keeps: its sections, what it keeps of its backups, and the state it gave last. */
final class InstanceSlot {
    final String host;
    /** {@code host/instance}, one string for everything of the instance that names it. */
    String scope;
    SqlInstanceSnapshot sections;
    /**
     * The sections' lists, immutable copies made when the sections change: each minute's state (a new one whenever the
     * heartbeat moved) holds these very lists instead of copying the row's again, so that what is keyed by a list's
     * identity ({@link DatabaseIdentities#tde}, the compression comparison's memo) holds from minute to minute.
     */
    SectionLists lists;
    long sectionsSeq;
    Instant lastSeen;
    List<RunningBackup> running;
    DatabaseIdentities identities;
    /** The digest, packed with each backup's keyed form ({@link #keyed()}). */
    PackedDigest digest = PackedDigest.EMPTY;
    int digestSize;
    /** When a digest backup crosses the lookback period's start or {@code now}: the digest is worked out again. */
    Instant digestValidUntil = Instant.MIN;
    KeptHistory history;
    /**
     * The calendar {@link #history} was worked out under: when the host's tags move the instance to another (a host
     * group matching them), its nights are worked out again under the new one.
     */
    String calendar;
    /** The QAT mode over time, and the backups the compression comparison reads: kept apart from the digest. */
    QatModes modes;
    CompressionSamples compression;
    /** The fulls backup-throughput-drop compares, by database identity: not in the digest. */
    Map<String, BaselineFulls> fulls = new HashMap<>();
    /**
     * Each database's log chain by identity: newest fulls and differential, log backups merged into links (issue 31),
     * so the LSNs of every backup are not kept. Not in the digest.
     */
    Map<String, LogChain> chains = new HashMap<>();
    /** Backups that started after the evaluation that read them: they join {@link #fulls} once started. */
    List<BackupRecord> future = List.of();
    boolean stale = true;
    /** It was rebuilt (or is new) since its summary was last written: written at the next evaluation. */
    boolean summaryDue;
    /** Backups it took changed what it keeps since its summary was last written: written within {@link SummaryWrites#SUMMARY_INTERVAL}. */
    boolean tookSinceSummary;
    /** The latest finished night's morning when its summary was written: a night finishing writes it again. */
    java.time.LocalDate summarisedMorning;
    /** The store position the summary it was restored from was written at; -1 when not restored. */
    long restoredFrom = -1;
    /** When its summary was last written (or the one it was restored from); null while it has none. */
    Instant summarisedAt;
    final List<BackupRecord> added = new ArrayList<>();
    /**
     * The sections' databases, those an older agent sent without {@code create_date} carrying the time the store first
     * saw them (their "appeared" event) in its place, so backup-missing waits a new database's objective from then;
     * null when every database has its {@code create_date}. Worked out when the instance is rebuilt.
     */
    List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> databases;
    /** Read when the instance is rebuilt, which an accelerator change (a section change) always makes it. */
    List<AcceleratorChange> acceleratorHistory = List.of();
    /** Its jobs, job runs, CommandLog rows and restores, read again whenever the store's {@code jobsSeq} moves. */
    JobActivity jobs;
    long jobsSeq = -1;
    long jobsSeqRead = -1;
    /** The state {@link #current()} gave last, and what it was built from that the state itself copies. */
    InstanceState kept;
    SqlInstanceSnapshot keptSections;
    List<io.qatwatch.protocol.SqlInstanceSnapshot.DatabaseInfo> keptDatabases;
    List<AcceleratorChange> keptAcceleratorHistory;
    JobActivity keptJobs;

    InstanceSlot(String host) {
        this.host = host;
    }

    void sections(SqlInstanceSnapshot s, long seq) {
        sections = s;
        lists = SectionLists.of(s);
        databases = null;
        sectionsSeq = seq;
        lastSeen = s.collectedAt();
        running = s.runningBackups() == null ? List.of() : s.runningBackups();
        String named = host + "/" + s.name();
        scope = named.equals(scope) ? scope : named;
        identities = DatabaseIdentities.of(scope, state(List.of()));
        stale = true;
    }

    /**
     * The digest's backups keyed by their databases' identities, in digest order: each keyed when it joined the digest
     * (the identities change only with the sections, which rebuild the instance).
     */
    List<DatabaseBackup> keyed() {
        return digest.keyed();
    }

    /**
     * The instance as of this refresh: the state of the previous one while nothing it holds changed, so that a quiet
     * minute builds nothing again and the rules see the same object.
     */
    InstanceState current() {
        InstanceState k = kept;
        if (k == null || keptSections != sections || keptDatabases != databases || k.backups() != digest
                || keptAcceleratorHistory != acceleratorHistory || k.compression() != compression || keptJobs != jobs
                || !java.util.Objects.equals(k.collectedAt(), lastSeen) || !k.runningBackups().equals(running == null ? List.of() : running)) {
            k = state(digest);
            kept = k;
            keptSections = sections;
            keptDatabases = databases;
            keptAcceleratorHistory = acceleratorHistory;
            keptJobs = jobs;
        }
        return k;
    }

    InstanceState state(List<BackupRecord> backups) {
        SqlInstanceSnapshot s = sections;
        SectionLists l = lists;
        return new InstanceState(s.name(), lastSeen, s.server(), l.configuration(), l.accelerators(),
                databases != null ? databases : l.databases(),
                l.certificates(), l.asymmetricKeys(), running, backups, acceleratorHistory, compression, jobs);
    }

    /** An instance's section lists as {@link InstanceState} holds them (immutable, none null), copied once per change. */
    record SectionLists(List<ConfigOption> configuration, List<AcceleratorStatus> accelerators, List<DatabaseInfo> databases,
                        List<CertificateInfo> certificates, List<AsymmetricKeyInfo> asymmetricKeys) {

        static SectionLists of(SqlInstanceSnapshot s) {
            return new SectionLists(copy(s.configuration()), copy(s.accelerators()), copy(s.databases()),
                    copy(s.certificates()), copy(s.asymmetricKeys()));
        }

        private static <T> List<T> copy(List<T> list) {
            return list == null ? List.of() : List.copyOf(list);
        }
    }
}
