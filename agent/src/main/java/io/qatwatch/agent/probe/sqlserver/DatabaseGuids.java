package io.qatwatch.agent.probe.sqlserver;

import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The database and family GUIDs of one instance's databases, remembered across cycles so that they are asked only when a
 * database is new to the agent. Reading {@code sys.database_recovery_status} starts a database that is not open ("If the
 * database is not opened, the Database Engine tries to start it"), so while the instance has an AUTO_CLOSE database the
 * GUIDs come from msdb's backup sets instead (guids-from-backups.sql), and the view is not read at all. A database is asked
 * about again when its id, {@code create_date} or state changes (created, restored anew, renamed, brought online), and,
 * when msdb named it no GUID (no backup since it was created), at the next inventory cycle. Offline databases are never
 * asked about. Pure apart from its memory; one probe uses it at a time.
 */
final class DatabaseGuids {

    /** What sys.databases says of a database, as far as its GUIDs are concerned. */
    record Seen(String name, int databaseId, LocalDateTime createDate, String state, boolean autoClose) {

        /** Online: its GUIDs can be asked (an AUTO_CLOSE database only of msdb). */
        boolean askable() {
            return "ONLINE".equalsIgnoreCase(state);
        }

        private Key key() {
            return new Key(databaseId, createDate, state == null ? null : state.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** The GUIDs of one database; either may be null. */
    record Guids(String databaseGuid, String familyGuid) {
    }

    private record Key(int databaseId, LocalDateTime createDate, String state) {
    }

    private final Set<Key> asked = new HashSet<>();
    private final Map<Integer, Guids> byId = new HashMap<>();

    /** Whether {@code databases} holds an askable database the agent has not asked about in its present form. */
    synchronized boolean needed(List<Seen> databases) {
        return databases.stream().anyMatch(d -> d.askable() && !asked.contains(d.key()));
    }

    /**
     * Records an answer (by database id) for the databases listed now, and forgets databases that are gone, so a
     * re-created database's old GUIDs are never reported for it. {@code fromBackups}: the answer came from msdb, where a
     * database without a backup yet has no GUID; it is asked about again until one names it.
     */
    synchronized void learned(List<Seen> databases, Map<Integer, Guids> answer, boolean fromBackups) {
        Set<Integer> present = new HashSet<>();
        asked.clear();
        for (Seen d : databases) {
            present.add(d.databaseId());
            if (d.askable()) {
                Guids g = answer.get(d.databaseId());
                boolean named = g != null && g.databaseGuid() != null;
                if (named || !fromBackups) {
                    asked.add(d.key());
                }
                if (named) {
                    byId.put(d.databaseId(), g);
                } else {
                    byId.remove(d.databaseId());
                }
            }
        }
        byId.keySet().retainAll(present);
    }

    /** The GUIDs last learned for this database in its present form; null when not known. */
    synchronized Guids of(Seen d) {
        return d.askable() && asked.contains(d.key()) ? byId.get(d.databaseId()) : null;
    }
}
