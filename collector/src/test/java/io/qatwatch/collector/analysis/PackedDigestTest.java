package io.qatwatch.collector.analysis;

import static io.qatwatch.collector.testing.Histories.backup;
import static io.qatwatch.collector.testing.Histories.db;
import static io.qatwatch.collector.testing.Histories.encrypted;
import static io.qatwatch.collector.testing.Histories.guid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qatwatch.collector.AlertsConfig;
import io.qatwatch.collector.analysis.FleetState.InstanceState;
import io.qatwatch.collector.store.SummaryInput;
import io.qatwatch.collector.store.SummaryOutput;
import io.qatwatch.collector.window.NightlyWindow.DatabaseBackup;
import io.qatwatch.collector.window.WindowSettings;
import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The digest as the alert stage packs it: the records it gives back, and its growth and cuts, equal to the lists'. */
class PackedDigestTest {

    private static final Instant T0 = Instant.parse("2026-10-04T01:00:00Z");
    private static final String SCOPE = "sql1/MSSQLSERVER";
    private static final AnalysisConfig CONFIG = new AlertsConfig(null, null, null, new WindowSettings(false, false, 21),
            null, null, null).validate().analysis();

    @Test
    void givesBackEveryRecordItPackedAndKeysEachAsTheAnalysisDoes() {
        List<BackupRecord> digest = mixed();
        DatabaseIdentities ids = identities();
        PackedDigest packed = PackedDigest.of(SCOPE, digest, ids);

        assertThat(packed).containsExactlyElementsOf(digest);
        assertThat(packed.keyed()).containsExactlyElementsOf(digest.stream().map(b -> FleetAnalysis.toBackup(SCOPE, b, ids)).toList());
        assertThat(PackedDigest.of(SCOPE, List.of(), ids)).isEmpty();
    }

    @Test
    void holdsTheKeyedFormItIsGivenForABackupAlreadyKeyedElsewhere() {
        List<BackupRecord> digest = mixed();
        DatabaseIdentities ids = identities();
        DatabaseBackup elsewhere = FleetAnalysis.toBackup(SCOPE, digest.get(2), ids);
        PackedDigest packed = PackedDigest.of(SCOPE, digest, ids, b -> b.equals(elsewhere) ? elsewhere : b);

        assertThat(packed.keyed().get(2)).isSameAs(elsewhere);
        assertThat(packed).containsExactlyElementsOf(digest);
    }

    @Test
    void picksForTheRulesEveryBackupOfTheKindTheyLookFor() {
        List<BackupRecord> digest = mixed();
        PackedDigest packed = PackedDigest.of(SCOPE, digest, identities());

        assertThat(PackedDigest.only(packed, PackedDigest.ENCRYPTION)).containsExactlyElementsOf(digest.stream()
                .filter(b -> b.encryptorThumbprint() != null || "TRIPLE_DES_3KEY".equalsIgnoreCase(b.keyAlgorithm())).toList());
        assertThat(PackedDigest.only(packed, PackedDigest.URL_FULL)).containsExactlyElementsOf(digest.stream()
                .filter(b -> "D".equals(b.type()) && !b.sizeIsEstimate() && "url".equalsIgnoreCase(b.target())).toList());
        assertThat(PackedDigest.only(packed, PackedDigest.MS_XPRESS)).containsExactlyElementsOf(digest.stream()
                .filter(b -> !"L".equals(b.type()) && !b.sizeIsEstimate() && "ms_xpress".equalsIgnoreCase(b.compressionAlgorithm()))
                .toList());
        assertThat(PackedDigest.only(packed, PackedDigest.MS_XPRESS | PackedDigest.QAT_DEFLATE)).containsExactlyElementsOf(
                digest.stream().filter(b -> !"L".equals(b.type()) && !b.sizeIsEstimate() && ("ms_xpress".equalsIgnoreCase(
                        b.compressionAlgorithm()) || "qat_deflate".equalsIgnoreCase(b.compressionAlgorithm()))).toList());
        assertThat(PackedDigest.only(packed, 0)).isEmpty();
        // a list that is not packed is given back whole: the rules' own tests then pick
        assertThat(PackedDigest.only(digest, PackedDigest.URL_FULL)).isSameAs(digest);
        assertThat(PackedDigest.only(PackedDigest.of(SCOPE, digest.subList(0, 2), identities()), PackedDigest.ENCRYPTION))
                .isEmpty();
    }

    @Test
    void growsAsTheListsDoWithoutKeyingAgainWhatItHeld() {
        List<BackupRecord> digest = mixed();
        DatabaseIdentities ids = identities();
        PackedDigest packed = PackedDigest.of(SCOPE, digest, ids);
        // one before the first, one between two of equal start (after them by backup_set_id), one already held, two of
        // one start given in reverse id order, one after the last: more than eight, and fewer
        List<BackupRecord> added = new ArrayList<>();
        added.add(backup("Sales", "L", T0.minusSeconds(60), 10, 1 << 20, "MS_XPRESS", "UNC"));
        added.add(digest.get(3));
        added.add(backup("HR", "L", digest.get(2).startedAt(), 10, 1 << 20, null, "UNC"));
        BackupRecord late = backup("HR", "L", T0.plus(Duration.ofDays(3)), 10, 1 << 20, null, "UNC");
        added.add(backup("Sales", "L", T0.plus(Duration.ofDays(3)), 10, 1 << 20, null, "UNC"));
        added.add(late);
        added.add(backup("Sales", "L", T0.plus(Duration.ofDays(4)), 10, 1 << 20, null, "UNC"));
        for (List<BackupRecord> some : List.of(added, grownTo(added, 12))) {
            List<DatabaseBackup> keyed = some.stream().map(b -> FleetAnalysis.toBackup(SCOPE, b, ids)).toList();
            PackedDigest grown = packed.with(some, keyed);

            List<BackupRecord> expected = BackupDigest.with(digest, some);
            assertThat(grown).containsExactlyElementsOf(expected);
            assertThat(grown.keyed()).containsExactlyElementsOf(expected.stream().map(b -> FleetAnalysis.toBackup(SCOPE, b, ids)).toList());
            assertThat(grown.keyed().get(1)).as("a backup it held keeps its keyed form").isSameAs(packed.keyed().get(0));
        }
        assertThat(packed.with(List.of(digest.get(0)), List.of(packed.keyed().get(0)))).isSameAs(packed);
    }

    @Test
    void keepsEachSetOfStringsOnceWhereverItsBackupsCameFrom() {
        // Sales's and HR's plain backups share their database's set; the encrypted ones and the URL snapshot have their own
        List<BackupRecord> digest = mixed();
        DatabaseIdentities ids = identities();
        PackedDigest packed = PackedDigest.of(SCOPE, digest, ids);
        assertThat(packed.stringSets()).isEqualTo(6);

        BackupRecord log = backup("Sales", "L", T0.plus(Duration.ofDays(1)), 10, 1 << 20, null, "UNC");
        BackupRecord other = new BackupRecord(9_000_000_003L, "Sales", guid("Sales"), "L", false, T0.plus(Duration.ofDays(2)),
                T0.plus(Duration.ofDays(2)).plusSeconds(5), true, 1, null, null, true, null, null, null, "TAPE", "UNC");
        PackedDigest grown = packed.with(List.of(log, other), List.of(FleetAnalysis.toBackup(SCOPE, log, ids),
                FleetAnalysis.toBackup(SCOPE, other, ids)));
        assertThat(grown.stringSets()).as("the log's set is Sales's; the tape's is new").isEqualTo(7);
        assertThat(grown.subList(digest.size(), digest.size() + 2)).containsExactly(log, other);

        // cut a month on: numbered again, only the sets of the backups kept
        Instant now = T0.plus(Duration.ofDays(30));
        PackedDigest cut = grown.digested(CONFIG, now);
        List<BackupRecord> kept = BackupDigest.of(new ArrayList<>(grown), CONFIG, now);
        assertThat(cut).containsExactlyElementsOf(kept).hasSizeLessThan(grown.size());
        assertThat(cut.stringSets()).isEqualTo((int) kept.stream().map(b -> java.util.Arrays.asList(b.databaseGuid(),
                b.keyAlgorithm(), b.encryptorThumbprint(), b.encryptorType(), b.deviceType(), b.familyGuid())).distinct().count())
                .isLessThan(grown.stringSets());
    }

    @Test
    void cutsAsTheDigestDoes() {
        // the newest full of each database in the lookback period, once three weeks have passed: the older ones go
        List<BackupRecord> loaded = new ArrayList<>();
        for (int week = 0; week < 6; week++) {
            loaded.add(backup("Sales", "D", T0.plus(Duration.ofDays(7L * week)), 600, 1L << 30, "MS_XPRESS", "UNC"));
            loaded.add(backup("HR", "D", T0.plus(Duration.ofDays(7L * week)).plusSeconds(900), 600, 1L << 30, "QAT_DEFLATE", "UNC"));
        }
        PackedDigest packed = PackedDigest.of(SCOPE, loaded, identities());
        for (int day : new int[] {10, 30, 40, 60}) {
            Instant now = T0.plus(Duration.ofDays(day));
            PackedDigest cut = packed.digested(CONFIG, now);
            assertThat(cut).containsExactlyElementsOf(BackupDigest.of(loaded, CONFIG, now));
            for (int k = 0; k < cut.size(); k++) {
                assertThat(cut.keyed().get(k)).isSameAs(packed.keyed().get(loaded.indexOf(cut.get(k))));
            }
        }
    }

    @Test
    void keepsEachBackupsNumberOfUrlsThroughGrowthAndCuts() {
        // backup-url-size-ceiling divides its ceiling by a full's URLs: known (4, 1) or not (an agent before issue 15)
        List<BackupRecord> base = mixed();
        List<BackupRecord> digest = new ArrayList<>(base);
        digest.add(toUrls(9_000_000_003L, "Sales", T0.plusSeconds(11_000), 4));
        digest.add(toUrls(9_000_000_004L, "HR", T0.plusSeconds(12_000), null));
        DatabaseIdentities ids = identities();
        PackedDigest packed = PackedDigest.of(SCOPE, digest, ids);
        assertThat(packed).containsExactlyElementsOf(digest);
        assertThat(packed.get(digest.size() - 2).mediaFamilyCount()).isEqualTo(4);
        PackedDigest none = PackedDigest.of(SCOPE, base, ids);
        assertThat(none).as("a digest where no backup has a count").containsExactlyElementsOf(base);

        BackupRecord next = toUrls(9_000_000_005L, "HR", T0.plus(Duration.ofDays(1)), 1);
        List<DatabaseBackup> nextKeyed = List.of(FleetAnalysis.toBackup(SCOPE, next, ids));
        PackedDigest grown = none.with(List.of(next), nextKeyed);
        assertThat(grown.get(grown.size() - 1)).isEqualTo(next);
        assertThat(grown.subList(0, grown.size() - 1)).containsExactlyElementsOf(base);

        Instant now = T0.plus(Duration.ofDays(30));
        List<BackupRecord> all = new ArrayList<>(digest);
        all.add(next);
        PackedDigest cut = packed.with(List.of(next), nextKeyed).digested(CONFIG, now);
        assertThat(cut).containsExactlyElementsOf(BackupDigest.of(all, CONFIG, now));
    }

    @Test
    void aSummaryGivesBackTheDigestWithTheOpenNightsBackupsItShared() {
        List<BackupRecord> digest = new ArrayList<>(mixed());
        digest.add(toUrls(9_000_000_003L, "Sales", T0.plusSeconds(11_000), 4));
        DatabaseIdentities ids = identities();
        DatabaseBackup shared = FleetAnalysis.toBackup(SCOPE, digest.get(1), ids);
        PackedDigest packed = PackedDigest.of(SCOPE, digest, ids, b -> b.equals(shared) ? shared : b);
        // the open night: a backup the digest does not hold, the one it shares, and one equal to a digest backup's keyed
        // form but not it (written whole, then shared as KeptHistory.same shares it)
        DatabaseBackup equal = FleetAnalysis.toBackup(SCOPE, digest.get(4), ids);
        List<DatabaseBackup> open = List.of(FleetAnalysis.toBackup(SCOPE, backup("HR", "L", T0, 5, 1 << 20, null, "UNC"), ids),
                shared, equal);
        assertThat(packed.keyed().get(4)).isEqualTo(equal).isNotSameAs(equal);

        SummaryOutput out = new SummaryOutput(T0);
        packed.write(out, open);
        SummaryInput in = new SummaryInput(out.toByteArray(), UnaryOperator.identity());
        PackedDigest read = PackedDigest.read(in, open, b -> open.stream().filter(b::equals).findFirst().orElse(b));
        in.end();

        assertThat(read).containsExactlyElementsOf(digest);
        assertThat(read.keyed()).containsExactlyElementsOf(packed.keyed());
        assertThat(read.keyed().get(1)).isSameAs(shared);
        assertThat(read.keyed().get(4)).isSameAs(equal);
        assertThat(read.get(digest.size() - 1).mediaFamilyCount()).isEqualTo(4);
        assertThat(read.stringSets()).isEqualTo(packed.stringSets());
        for (int flag : new int[] {PackedDigest.ENCRYPTION, PackedDigest.URL_FULL, PackedDigest.MS_XPRESS, PackedDigest.QAT_DEFLATE}) {
            assertThat(PackedDigest.only(read, flag)).containsExactlyElementsOf(PackedDigest.only(packed, flag));
        }

        SummaryOutput none = new SummaryOutput(T0);
        PackedDigest.of(SCOPE, List.of(), ids).write(none, open);
        assertThat(PackedDigest.read(new SummaryInput(none.toByteArray(), UnaryOperator.identity()), open, b -> b)).isEmpty();
    }

    @Test
    void aSummaryThatNamesASetOfStringsOrAnOpenBackupItDoesNotHoldIsDamaged() {
        for (int damage = 0; damage < 2; damage++) {
            SummaryOutput out = new SummaryOutput(T0);
            out.writeCount(1);
            out.writeCount(1);
            for (int s = 0; s < 6; s++) {
                out.writeString("s" + s);
            }
            out.writeBoolean(false);
            out.writeLong(7);
            // set 1 of the one set there is, or set 0 and the open night's first backup of none
            out.writeCount(damage == 0 ? 1 << 8 : 0);
            out.writeCount(1);
            SummaryInput in = new SummaryInput(out.toByteArray(), UnaryOperator.identity());
            assertThatThrownBy(() -> PackedDigest.read(in, List.of(), b -> b)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(damage == 0 ? "set of strings 1 of 1" : "open backup 0 of 0");
        }
    }

    private static BackupRecord toUrls(long id, String db, Instant start, Integer urls) {
        return new BackupRecord(id, db, guid(db), "D", false, start, start.plusSeconds(600), true, 3L << 30, 1L << 30,
                "MS_XPRESS", true, "NO_Encryption", null, null, "URL", "URL", "fam-" + id, false, urls);
    }

    /** Backups of every kind the flags and columns tell apart: encrypted, to URL, snapshots, odd times and no sizes. */
    private static List<BackupRecord> mixed() {
        List<BackupRecord> out = new ArrayList<>();
        out.add(backup("Sales", "D", T0, 600, 1L << 30, "MS_XPRESS", "UNC"));
        out.add(backup("Sales", "L", T0.plusSeconds(3600), 10, 1 << 20, null, "UNC"));
        out.add(backup("HR", "D", T0.plusSeconds(7200).plusNanos(123_000_000), 900, 5L << 40, "QAT_DEFLATE", "URL"));
        out.add(encrypted("HR", T0.plusSeconds(7200).plusNanos(123_000_000), 60, 1L << 30, "AES_256", "0xA1B2C3"));
        out.add(encrypted("Sales", T0.plusSeconds(9000), 60, 1L << 30, "TRIPLE_DES_3KEY", null));
        // a snapshot to URL (its size an estimate), no compressed size, no time zone, no checksums; and one not a snapshot
        out.add(new BackupRecord(9_000_000_001L, "Sales", guid("Sales"), "D", true, T0.plusSeconds(10_000),
                T0.plusSeconds(10_001), false, 7, null, null, false, null, null, null, "VIRTUAL_DEVICE", "url", "fam-1",
                true));
        out.add(new BackupRecord(9_000_000_002L, "HR", guid("HR"), "I", false, T0.plusSeconds(10_000),
                T0.plusSeconds(10_100), true, 1 << 20, 1L << 19, "ms_xpress", true, "NO_Encryption", null, null, "DISK", "URL",
                "fam-2", false));
        return out;
    }

    private static DatabaseIdentities identities() {
        return DatabaseIdentities.of(SCOPE, new InstanceState("MSSQLSERVER", T0, null, null, null,
                List.of(db("Sales", "FULL"), db("HR", "SIMPLE")), null, null, null, null));
    }

    private static List<BackupRecord> grownTo(List<BackupRecord> added, int n) {
        List<BackupRecord> out = new ArrayList<>(added);
        while (out.size() < n) {
            out.add(backup("HR", "L", T0.plus(Duration.ofDays(5)).plusSeconds(out.size()), 10, 1 << 20, null, "UNC"));
        }
        return out;
    }
}
