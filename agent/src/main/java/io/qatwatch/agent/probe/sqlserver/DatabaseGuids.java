package io.qatwatch.agent.probe.sqlserver;

import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The database and family GUIDs of one instance's databases, remembered across cycles so that
 * {@code sys.database_recovery_status} is asked only when a database is new to the agent. Reading that view starts a
 * database that is not open ("If the database is not opened, the Database Engine tries to start it"), so asking it every
 * cycle kept every AUTO_CLOSE database awake. A database is asked about again when its id, {@code create_date} or state
 * changes (created, restored anew, renamed, brought online); AUTO_CLOSE and offline databases are never asked about.
 * Pure apart from its memory; one probe uses it at a time.
 */
final class DatabaseGuids {

    /** What sys.databases says of a database, as far as its GUIDs are concerned. */
    record Seen(String name, int databaseId, LocalDateTime createDate, String state, boolean autoClose) {

        /** Online and not AUTO_CLOSE: it is open, so asking for its GUIDs wakes nothing. */
        boolean askable() {
            return !autoClose && "ONLINE".equalsIgnoreCase(state);
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
     * Records an answer of database-guids.sql (by database id) for the databases listed now, and forgets databases that
     * are gone, so a re-created database's old GUIDs are never reported for it.
     */
    synchronized void learned(List<Seen> databases, Map<Integer, Guids> answer) {
        Set<Integer> present = new HashSet<>();
        asked.clear();
        for (Seen d : databases) {
            present.add(d.databaseId());
            if (d.askable()) {
                asked.add(d.key());
                Guids g = answer.get(d.databaseId());
                if (g == null) {
                    byId.remove(d.databaseId());
                } else {
                    byId.put(d.databaseId(), g);
                }
            }
        }
        byId.keySet().retainAll(present);
    }

    /** The GUIDs last learned for this database in its present form; null when not known (never asked, or AUTO_CLOSE). */
    synchronized Guids of(Seen d) {
        return d.askable() && asked.contains(d.key()) ? byId.get(d.databaseId()) : null;
    }
}
