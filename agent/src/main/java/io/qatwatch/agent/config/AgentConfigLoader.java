package io.qatwatch.agent.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qatwatch.agent.config.AgentConfig.Collector;
import io.qatwatch.agent.config.AgentConfig.Schedule;
import io.qatwatch.agent.probe.sqlserver.SqlInstanceSettings;
import io.qatwatch.agent.ship.OutboxSettings;
import io.qatwatch.protocol.ReportValidator;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads {@code agent.yaml}: YAML, then environment overrides, then validation; every error names its key.
 * Warnings (a config file others can read, a token sent in clear text) are returned for the caller to log.
 */
public final class AgentConfigLoader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The configuration and what was questionable about it. */
    public record Loaded(AgentConfig config, List<String> warnings) {
    }

    private AgentConfigLoader() {
    }

    public static Loaded load(Path file, Map<String, String> env) {
        JsonNode tree;
        try {
            tree = YAML.readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw new ConfigException("--config", "file " + file + " not found; start from install/agent.example.yaml");
        } catch (IOException e) {
            throw new ConfigException("--config", "cannot read " + file + ": " + firstLine(e.getMessage()));
        }
        Path base = file.toAbsolutePath().getParent();
        List<String> warnings = new ArrayList<>(permissionWarnings(file, "config file"));
        Loaded parsed = parse(tree, env, base, new TreeSet<>());
        warnings.addAll(parsed.warnings());
        if (parsed.config().collector().tokenFile() != null) {
            warnings.addAll(permissionWarnings(parsed.config().collector().tokenFile(), "token file (collector.tokenFile)"));
        }
        return new Loaded(parsed.config(), warnings);
    }

    /** Parses an already read tree; relative paths resolve against {@code baseDir}. Records every key read in {@code keys}. */
    static Loaded parse(JsonNode tree, Map<String, String> env, Path baseDir, Set<String> keys) {
        AgentConfig d = AgentConfig.defaults();
        List<String> warnings = new ArrayList<>();
        ConfigReader root = ConfigReader.root(tree, env, baseDir, keys);

        ConfigReader agent = root.section("agent");
        String name = agent.string("name", d.name()).trim();
        Map<String, String> tags = agent.stringMap("tags");
        if (tags.size() > io.qatwatch.protocol.AgentInfo.MAX_TAGS) {
            throw new ConfigException("agent.tags", "more than " + io.qatwatch.protocol.AgentInfo.MAX_TAGS + " tags");
        }
        for (Map.Entry<String, String> t : tags.entrySet()) {
            String problem = io.qatwatch.protocol.AgentInfo.tagProblem(t.getKey(), t.getValue());
            if (problem != null) {
                throw new ConfigException("agent.tags." + t.getKey(), problem);
            }
        }
        agent.finish();

        ConfigReader c = root.section("collector");
        Collector dc = d.collector();
        URI url = collectorUrl(c.string("url", null));
        Path tokenFile = c.path("tokenFile", dc.tokenFile());
        String tokenEnv = c.string("tokenEnv", dc.tokenEnv());
        Path caFile = c.path("caFile", dc.caFile());
        boolean gzip = c.bool("gzip", dc.gzip());
        Duration connectTimeout = c.duration("connectTimeout", dc.connectTimeout(), Duration.ofSeconds(1));
        Duration requestTimeout = c.duration("requestTimeout", dc.requestTimeout(), Duration.ofSeconds(1));
        Duration initialBackoff = c.duration("initialBackoff", dc.initialBackoff(), Duration.ofMillis(100));
        Duration maxBackoff = c.duration("maxBackoff", dc.maxBackoff(), Duration.ofSeconds(1));
        c.finish();
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new ConfigException("collector.maxBackoff", "must not be shorter than collector.initialBackoff ("
                    + ConfigReader.format(initialBackoff) + ")");
        }
        if (caFile != null && !Files.isReadable(caFile)) {
            throw new ConfigException("collector.caFile", "cannot read " + caFile
                    + "; give the PEM file of the CA that signed the collector's certificate, or remove the key to use the system trust store");
        }
        if (tokenFile != null && !Files.isReadable(tokenFile)) {
            throw new ConfigException("collector.tokenFile", "cannot read " + tokenFile
                    + "; issue a token on the collector and save it there (readable by the agent's user only)");
        }
        if ("http".equals(url.getScheme()) && !isLoopback(url.getHost())) {
            warnings.add("collector.url uses plain http to " + url.getHost() + ": the agent token and reports travel "
                    + "unencrypted; use https");
        }

        ConfigReader o = root.section("outbox");
        OutboxSettings dout = d.outbox();
        long maxBytes = o.bytes("maxBytes", dout.maxBytes(), 1L << 20);
        long segmentBytes = o.bytes("segmentBytes", dout.segmentBytes(), 64L << 10);
        boolean fsync = o.bool("fsync", dout.fsync());
        int parkedKept = o.integer("parkedKept", dout.parkedKept(), 0, 10_000);
        o.finish();
        if (segmentBytes > maxBytes) {
            throw new ConfigException("outbox.segmentBytes", "must not be larger than outbox.maxBytes (" + maxBytes + " bytes)");
        }

        ConfigReader s = root.section("schedule");
        Schedule ds = d.schedule();
        Duration minimum = Duration.ofSeconds(1);
        Schedule schedule = new Schedule(
                s.duration("host", ds.host(), minimum),
                s.duration("sqlInventory", ds.sqlInventory(), minimum),
                s.duration("sqlConfiguration", ds.sqlConfiguration(), minimum),
                s.duration("sqlBackups", ds.sqlBackups(), minimum),
                s.duration("backupCatchUp", ds.backupCatchUp(), Duration.ofMillis(100)));
        s.finish();

        ConfigReader h = root.section("health");
        int healthPort = h.integer("port", d.healthPort(), 0, 65535);
        h.finish();

        ConfigReader sql = root.section("sqlserver");
        List<SqlInstanceSettings> instances = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<ConfigReader> entries = sql.list("instances");
        for (int i = 0; i < entries.size(); i++) {
            SqlInstanceSettings instance = instance(entries.get(i), "sqlserver.instances[" + i + "]");
            if (!names.add(instance.name().toLowerCase(Locale.ROOT))) {
                throw new ConfigException("sqlserver.instances[" + i + "].name", "'" + instance.name()
                        + "' is used twice; each instance needs its own name");
            }
            instances.add(instance);
        }
        sql.finish();
        root.finish();

        AgentConfig config = new AgentConfig(name,
                new Collector(url, tokenFile, tokenEnv, caFile, gzip, connectTimeout, requestTimeout, initialBackoff, maxBackoff),
                new OutboxSettings(maxBytes, segmentBytes, fsync, parkedKept),
                schedule, healthPort, instances, tags);
        return new Loaded(config, warnings);
    }

    private static SqlInstanceSettings instance(ConfigReader r, String at) {
        String name = r.string("name", null);
        String jdbcUrl = r.string("jdbcUrl", null);
        if (name == null || !ReportValidator.IDENTIFIER.matcher(name).matches()) {
            throw new ConfigException(at + ".name", "required: 1 to 64 letters, digits or _ $ # . - (e.g. MSSQLSERVER or PROD)"
                    + (name == null ? "" : " (was '" + name + "')"));
        }
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:sqlserver://")) {
            throw new ConfigException(at + ".jdbcUrl", "required: a jdbc:sqlserver:// URL, e.g. "
                    + "jdbc:sqlserver://localhost:1433;encrypt=true");
        }
        if (jdbcUrl.toLowerCase(Locale.ROOT).contains("password=")) {
            throw new ConfigException(at + ".jdbcUrl", "must not contain the password; put it in a file named by "
                    + at + ".passwordFile or an environment variable named by " + at + ".passwordEnv");
        }
        SqlInstanceSettings d = AgentConfig.instanceDefaults(name, jdbcUrl);
        String user = blankToNull(r.string("user", d.user()));
        Path passwordFile = r.path("passwordFile", d.passwordFile());
        String passwordEnv = blankToNull(r.string("passwordEnv", d.passwordEnv()));
        boolean trust = r.bool("trustServerCertificate", d.trustServerCertificate());
        Duration loginTimeout = r.duration("loginTimeout", d.loginTimeout(), Duration.ofSeconds(1));
        Duration queryTimeout = r.duration("queryTimeout", d.queryTimeout(), Duration.ofSeconds(1));
        int pageSize = r.integer("backupPageSize", d.backupPageSize(), 1, ReportValidator.MAX_BACKUPS_PER_INSTANCE);
        String commandLogDatabase = r.string("commandLogDatabase", d.commandLogDatabase());
        r.finish();
        if (commandLogDatabase == null || !SqlInstanceSettings.DATABASE_NAME.matcher(commandLogDatabase).matches()) {
            throw new ConfigException(at + ".commandLogDatabase", "the database holding Ola Hallengren's dbo.CommandLog: a plain "
                    + "database name (a letter or _, then letters, digits, _ @ $ #; at most 128), e.g. master or DBA (was '"
                    + commandLogDatabase + "')");
        }
        if (passwordFile != null && passwordEnv != null) {
            throw new ConfigException(at + ".passwordEnv", "give either passwordFile or passwordEnv, not both");
        }
        if (user != null && passwordFile == null && passwordEnv == null) {
            throw new ConfigException(at + ".passwordFile", "SQL login '" + user + "' needs a password: set passwordFile "
                    + "or passwordEnv (or remove user for Windows integrated authentication)");
        }
        if (passwordFile != null && !Files.isReadable(passwordFile)) {
            throw new ConfigException(at + ".passwordFile", "cannot read " + passwordFile);
        }
        return new SqlInstanceSettings(name, jdbcUrl, user, passwordFile, passwordEnv, trust, loginTimeout, queryTimeout, pageSize,
                commandLogDatabase);
    }

    private static URI collectorUrl(String value) {
        if (value == null || value.isBlank()) {
            throw new ConfigException("collector.url", "required: the collector's base URL, e.g. https://collector.example.org:8470");
        }
        try {
            URI uri = new URI(value.trim());
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new ConfigException("collector.url", "must be an https:// (or http://) URL with a host (was '" + value + "')");
            }
            if (uri.getUserInfo() != null) {
                throw new ConfigException("collector.url", "must not carry credentials; the token goes in collector.tokenFile");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new ConfigException("collector.url", "is not a URL: " + e.getMessage());
        }
    }

    /** A warning when others than the owner (and group) may read {@code file}; nothing on file systems without POSIX modes. */
    static List<String> permissionWarnings(Path file, String what) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.OTHERS_READ)) {
                return List.of(what + " " + file + " is readable by every user on this host; run: chmod o-rwx " + file);
            }
        } catch (UnsupportedOperationException | IOException e) {
            return List.of();
        }
        return List.of();
    }

    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
