package io.qatwatch.agent.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.text.NumberFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/sqlserver.md and the query headers are one truth: per query the permission and the minimum version, and the row limit. */
class SqlServerDocumentTest {

    private static final Path DOC = Path.of(System.getProperty("basedir", ".")).resolve("../docs/sqlserver.md").normalize();

    @Test
    void everyQueryIsListedWithTheMinimumAndPermissionItsHeaderDeclares() throws Exception {
        String doc = Files.readString(DOC);
        for (SqlQuery q : SqlQuery.all()) {
            Matcher row = Pattern.compile("(?m)^\\| [^|]*`" + Pattern.quote(q.name()) + "`[^|]*\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|$").matcher(doc);
            assertThat(row.find()).as("docs/sqlserver.md has a table row for %s", q.name()).isTrue();
            assertThat(row.group(2)).as("%s minimum", q.name()).contains(Integer.toString(q.minimumMajorVersion()));
            assertThat(row.group(3).strip()).as("%s permission, as its header says", q.name()).isEqualTo(q.permission());
            assertThat(row.group(4).strip()).as("%s source", q.name()).isNotEmpty();
        }
    }

    @Test
    void theRowLimitOfAProbeIsTheCodes() throws Exception {
        String doc = Files.readString(DOC);
        Matcher limit = Pattern.compile("reads at most ([\\d,]+) rows").matcher(doc);
        assertThat(limit.find()).isTrue();
        assertThat(limit.group(1)).isEqualTo(NumberFormat.getIntegerInstance(Locale.US).format(JdbcSqlInstanceProbe.MAX_BACKUP_ROWS_PER_PROBE));
    }
}
