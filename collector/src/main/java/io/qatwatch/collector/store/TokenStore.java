package io.qatwatch.collector.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Agent tokens and the people's tokens (read, operator, admin). A token is {@code qw_<id>_<secret>}: the id finds the row, the secret (256 random
 * bits) is stored only as its SHA-256 and compared in constant time. Blocking; runs off the event loop, except
 * {@link #authenticateCached}, which answers from memory.
 *
 * <p>Rows read for authentication are kept in memory (id, hash and facts, never the secret) for {@link #CACHE_FOR},
 * so that ingest does not read the database per request. A revoke through this store takes effect at once; a revoke
 * by another process on the same file ({@code qatwatch collector token revoke} while the collector runs) within
 * {@link #CACHE_FOR}.
 */
public final class TokenStore {

    /**
     * What a token may do. An agent posts reports as its host and nothing else. The others are people's roles,
     * each allowed what the one before it is: read (the API and the status page), operator (also silences,
     * acknowledgements and notes), admin (also tokens).
     */
    public enum Kind {
        AGENT, READ, OPERATOR, ADMIN;

        /** The spelling on the command line, in the API and in listings: {@code agent}, {@code read}, ... */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The kind spelled {@code label} (any case), or null. */
        public static Kind parse(String label) {
            for (Kind k : values()) {
                if (k.name().equalsIgnoreCase(label == null ? "" : label.trim())) {
                    return k;
                }
            }
            return null;
        }

        /** True when this token may do what {@code needed} may: a people's role includes the ones before it. */
        public boolean allows(Kind needed) {
            if (this == AGENT || needed == AGENT) {
                return this == needed;
            }
            return compareTo(needed) >= 0;
        }
    }

    /** A token's public facts; the secret is never kept. */
    public record TokenInfo(String id, String name, Kind kind, Instant createdAt, Instant revokedAt) {
    }

    /** Host and agent names: they key stored state and appear in URLs. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._\\-]{0,62}");

    private static final Pattern TOKEN = Pattern.compile("qw_([a-z0-9]{12})_([A-Za-z0-9_\\-]{43})");
    private static final char[] ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    /** How long a token row read from the database answers from memory, by default. */
    public static final Duration CACHE_FOR = Duration.ofSeconds(5);

    /** A token row as read, and when (a {@link System#nanoTime()} value). */
    private record Cached(byte[] secretSha256, TokenInfo info, long readAtNanos) {
    }

    private final Database db;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private final long cacheForNanos;

    public TokenStore(Database db) throws SQLException {
        this(db, CACHE_FOR);
    }

    /** As {@link #TokenStore(Database)}, with rows read for authentication kept in memory for {@code cacheFor}. */
    public TokenStore(Database db, Duration cacheFor) throws SQLException {
        this.db = db;
        this.cacheForNanos = cacheFor.toNanos();
        if (db.kind() == Database.Kind.POSTGRESQL) {
            // one active token per name and kind, held by the database since collectors and the CLI add concurrently
            db.migrate("tokens", List.of("""
                    CREATE TABLE tokens (
                      id TEXT PRIMARY KEY,
                      name TEXT COLLATE "C" NOT NULL,
                      kind TEXT NOT NULL,
                      secret_sha256 BYTEA NOT NULL,
                      created_at BIGINT NOT NULL,
                      revoked_at BIGINT);
                    CREATE UNIQUE INDEX tokens_one_active ON tokens(name, kind) WHERE revoked_at IS NULL"""));
            return;
        }
        db.migrate("tokens", List.of("""
                CREATE TABLE IF NOT EXISTS tokens (
                  id TEXT PRIMARY KEY,
                  name TEXT NOT NULL,
                  kind TEXT NOT NULL,
                  secret_sha256 BLOB NOT NULL,
                  created_at INTEGER NOT NULL,
                  revoked_at INTEGER)"""));
    }

    /** Issues a new token for {@code name}; the returned plain token is shown once and never stored. */
    public String add(String name, Kind kind, Instant now) throws SQLException {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("token name '" + name
                    + "' must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit (use the host name)");
        }
        IllegalArgumentException exists = new IllegalArgumentException("an active " + kind.label()
                + " token for '" + name + "' exists already; revoke it first (qatwatch collector token revoke " + name + ")");
        try {
            return sql(() -> db.transaction(c -> insert(c, name, kind, now, exists)));
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                throw exists;
            }
            throw e;
        }
    }

    private String insert(Connection c, String name, Kind kind, Instant now, IllegalArgumentException exists)
            throws SQLException {
        if (active(c, name, kind).isPresent()) {
            throw exists;
        }
        StringBuilder id = new StringBuilder(12);
        for (int i = 0; i < 12; i++) {
            id.append(ID_CHARS[random.nextInt(ID_CHARS.length)]);
        }
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String secretText = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO tokens(id, name, kind, secret_sha256, created_at) VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, id.toString());
            s.setString(2, name);
            s.setString(3, kind.name());
            s.setBytes(4, sha256(secretText));
            s.setLong(5, now.toEpochMilli());
            s.executeUpdate();
        }
        return "qw_" + id + "_" + secretText;
    }

    /** Revokes the active tokens of {@code name}; returns how many were revoked. */
    public int revoke(String name, Instant now) throws SQLException {
        return sql(() -> db.write(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "UPDATE tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL")) {
                s.setLong(1, now.toEpochMilli());
                s.setString(2, name);
                int revoked = s.executeUpdate();
                cache.values().removeIf(row -> row.info().name().equals(name));
                return revoked;
            }
        }));
    }

    public List<TokenInfo> list() throws SQLException {
        return sql(() -> db.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT id, name, kind, created_at, revoked_at FROM tokens ORDER BY name, created_at")) {
                List<TokenInfo> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(info(rs));
                    }
                }
                return out;
            }
        }));
    }

    /**
     * The active token the presented bearer value belongs to, if any. Never logs or keeps the value. Reads the
     * database (on the read connection) unless the token's row was read within the cache time.
     */
    public Optional<TokenInfo> authenticate(String presented) throws SQLException {
        Optional<Optional<TokenInfo>> known = authenticateCached(presented, System.nanoTime());
        if (known.isPresent()) {
            return known.get();
        }
        var m = TOKEN.matcher(presented);
        m.matches();
        Cached row = read(m.group(1));
        if (row == null) {
            return Optional.empty();
        }
        cache.put(m.group(1), row);
        return verify(row, m.group(2));
    }

    /**
     * Answers from memory without blocking: the outer optional is empty when the database must be asked
     * ({@link #authenticate}); otherwise it holds the result. A value that is not a token needs no database.
     */
    public Optional<Optional<TokenInfo>> authenticateCached(String presented, long nowNanos) {
        if (presented == null) {
            return Optional.of(Optional.empty());
        }
        var m = TOKEN.matcher(presented);
        if (!m.matches()) {
            return Optional.of(Optional.empty());
        }
        Cached row = cache.get(m.group(1));
        if (row == null || nowNanos - row.readAtNanos() > cacheForNanos) {
            return Optional.empty();
        }
        return Optional.of(verify(row, m.group(2)));
    }

    private static Optional<TokenInfo> verify(Cached row, String secret) {
        boolean matches = MessageDigest.isEqual(row.secretSha256(), sha256(secret));
        return matches && row.info().revokedAt() == null ? Optional.of(row.info()) : Optional.empty();
    }

    private Cached read(String id) throws SQLException {
        return sql(() -> db.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT id, name, kind, created_at, revoked_at, secret_sha256 FROM tokens WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? new Cached(rs.getBytes("secret_sha256"), info(rs), System.nanoTime()) : null;
                }
            }
        }));
    }

    private static Optional<TokenInfo> active(Connection c, String name, Kind kind) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT id, name, kind, created_at, revoked_at FROM tokens WHERE name = ? AND kind = ? AND revoked_at IS NULL")) {
            s.setString(1, name);
            s.setString(2, kind.name());
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(info(rs)) : Optional.empty();
            }
        }
    }

    private static TokenInfo info(ResultSet rs) throws SQLException {
        long revoked = rs.getLong("revoked_at");
        boolean wasRevoked = !rs.wasNull();
        return new TokenInfo(rs.getString("id"), rs.getString("name"), Kind.valueOf(rs.getString("kind")),
                Instant.ofEpochMilli(rs.getLong("created_at")), wasRevoked ? Instant.ofEpochMilli(revoked) : null);
    }

    /** Blocking work on the store, a database's I/O failure reported as the SQL failure it is. */
    @FunctionalInterface
    private interface Sql<T> {
        T run() throws SQLException, IOException;
    }

    private static <T> T sql(Sql<T> work) throws SQLException {
        try {
            return work.run();
        } catch (IOException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
