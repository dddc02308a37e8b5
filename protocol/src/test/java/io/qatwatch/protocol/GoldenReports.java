package io.qatwatch.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The golden reports in {@code protocol/src/test/resources/golden}, shared with agent and collector tests. */
public final class GoldenReports {

    public static final String COMPLETE = "golden/report-complete.json";

    private GoldenReports() {
    }

    public static byte[] bytes(String resource) {
        try (InputStream in = GoldenReports.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static AgentReport complete() {
        return ReportJson.parse(bytes(COMPLETE));
    }
}
