package io.qatwatch.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.qatwatch.collector.analysis.HostGroupConfig;
import io.qatwatch.collector.config.ConfigException;
import io.qatwatch.collector.notify.ChannelConfig;
import io.qatwatch.collector.window.CalendarConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertsConfigTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Test
    void everyProblemNamesItsKey() {
        AlertsConfig bad = new AlertsConfig(
                List.of(new CalendarConfig("emea", "Europe/Berln", Map.of("mon-fry", "07:00-19:00"), List.of("2026-13-01"), null)),
                null,
                List.of(new HostGroupConfig("fra", "apac", List.of("sql-fra-*"), null, null)),
                null, null, null,
                List.of(ChannelConfig.webhook("slack", null), ChannelConfig.webhook("pager", "https://x")));
        assertThatThrownBy(bad::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
                        "alerts.calendars[0].zone: unknown time zone 'Europe/Berln'; use an IANA name such as Europe/Berlin",
                        "alerts.calendars[0].hours.mon-fry: 'fry' is not a weekday (mon, tue, wed, thu, fri, sat, sun); write e.g. mon-fri: \"07:00-19:00\"",
                        "alerts.calendars[0].holidays[0]: '2026-13-01' is neither a date (2026-12-24) nor a yearly day (--12-25)",
                        "alerts.hostGroups[0].calendar: 'apac' is not a calendar name; known: [emea]",
                        "alerts.channels[0].url: give exactly one of url, urlFile, urlEnv (the webhook URL holds a secret: prefer urlFile)",
                        "alerts.channels[1].type: 'pager' is not a channel type; use one of slack, teams, googlechat, mattermost, webhook, email"));
    }

    @Test
    void threadedChannelsNeedATokenAndRoutesNeedKnownGroups() {
        AlertsConfig bad = new AlertsConfig(null, null, List.of(new HostGroupConfig("fra", "default", List.of("sql-fra-*"), null, null)),
                null, null, null, List.of(
                        ChannelConfig.botApi("slack", "no-token", null, "C0123ABCDEF", null),
                        ChannelConfig.botApi("mattermost", "no-server", null, "4xp9fdt8pjgyxn7fyt9ah3csdh", "MM"),
                        ChannelConfig.botApi("teams", "teams", "https://x", "C1", "T"),
                        ChannelConfig.webhook("webhook", "https://x").routedTo(List.of("frankfurt"), List.of("bad tag"))));
        assertThatThrownBy(bad::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
                        "alerts.channels[0].tokenFile: posting through the slack API needs a bot token: give tokenFile or tokenEnv",
                        "alerts.channels[1].url: give the Mattermost server's base URL (https://mattermost.example.com) as url, urlFile or urlEnv",
                        "alerts.channels[2].channel: only slack and mattermost post to a channel through their API; teams takes a webhook URL",
                        "alerts.channels[3].tags[0]: 'bad tag' is not key=value or a bare tag key",
                        "alerts.channels[3].hostGroups[0]: 'frankfurt' is not a host group name; known: [fra]"));
        assertThat(new AlertsConfig(null, null, null, null, null, null,
                List.of(ChannelConfig.botApi("slack", "threads", null, "C0123ABCDEF", "SLACK_TOKEN"))).validate().channels())
                .as("Slack's API URL is the default").hasSize(1);
    }

    @Test
    void theDefaultsDocumentedInDocsAlertsMdAreTheCodesDefaults() throws Exception {
        String doc = Files.readString(docs());
        int at = doc.indexOf("## Defaults");
        int start = doc.indexOf("```yaml\n", at) + "```yaml\n".length();
        String yaml = doc.substring(start, doc.indexOf("```", start));
        JsonNode alerts = YAML.readTree(yaml).get("alerts");
        AlertsConfig documented = YAML.treeToValue(alerts, AlertsConfig.class).validate();
        assertThat(documented).isEqualTo(AlertsConfig.DEFAULTS);
        assertThat(documented.rules().backupWindowCreep().horizonDays()).isEqualTo(21);
    }

    @Test
    void theCompressionThresholdsAreReadFromYamlAndCheckedWithTheirKeys() throws Exception {
        AlertsConfig read = YAML.treeToValue(YAML.readTree(String.join("\n",
                "rules:",
                "  compressionVerdicts: { minBackups: 1, minSpeedGainPercent: 0, maxSlowdownPercent: -5, minSizeGainPercent: 100 }",
                "  qatNoGain: { severity: warning }",
                "  compressionWorthTrying: { enabled: false }")), AlertsConfig.class);
        assertThat(read.rules().qatNoGain().severity()).isEqualTo(io.qatwatch.collector.alert.Severity.WARNING);
        assertThat(read.rules().compressionWorthTrying().enabled()).isFalse();
        assertThat(read.rules().compressionVerdicts().maxRatioLossPercent()).as("unset keys keep their defaults").isEqualTo(10.0);
        assertThatThrownBy(read::validate).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
                        "alerts.rules.compressionVerdicts.minBackups: must be at least 2 (a median of one backup is an anecdote), got 1",
                        "alerts.rules.compressionVerdicts.minSpeedGainPercent: must be more than 0 (a percentage), got 0.0",
                        "alerts.rules.compressionVerdicts.maxSlowdownPercent: must be 0 or more (a percentage), got -5.0",
                        "alerts.rules.compressionVerdicts.minSizeGainPercent: must be under 100 (a backup cannot shrink by all of it), got 100.0"));
    }

    @Test
    void groupsMapHostsAndInstancesToCalendarsFirstMatchWins() {
        AlertsConfig c = new AlertsConfig(
                List.of(new CalendarConfig("emea", "Europe/Berlin", null, null, null),
                        new CalendarConfig("us", "America/New_York", null, null, 30)),
                "emea",
                List.of(new HostGroupConfig("ny-prod", "us", null, List.of("sql-ny-0?/PROD"), null),
                        new HostGroupConfig("americas", "us", null, null, List.of("americas"))),
                null, null, null, null).validate();
        assertThat(c.analysis().calendarNameFor("SQL-NY-01", "PROD", java.util.Set.of())).isEqualTo("us");
        assertThat(c.analysis().calendarNameFor("sql-ny-01", "TEST", java.util.Set.of())).isEqualTo("emea");
        assertThat(c.analysis().calendarNameFor("sql-sp-01", null, java.util.Set.of("americas"))).isEqualTo("us");
    }

    private static Path docs() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs/alerts.md"))) {
            p = p.getParent();
        }
        return p.resolve("docs/alerts.md");
    }
}
