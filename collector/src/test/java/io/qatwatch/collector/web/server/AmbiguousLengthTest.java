package io.qatwatch.collector.web.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.collector.store.TokenStore;
import io.qatwatch.collector.testing.RunningCollector;
import io.qatwatch.collector.testing.StoreKinds;
import io.qatwatch.protocol.GoldenReports;
import io.qatwatch.protocol.SchemaSamples;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request with both {@code Content-Length} and {@code Transfer-Encoding: chunked} (RFC 9112 §6.1) is refused with
 * 400 and its connection closed, so what follows it on the connection is never read as a request; a chunked report
 * alone is stored as before, on a connection that stays open.
 */
class AmbiguousLengthTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse(SchemaSamples.NOW), ZoneOffset.UTC);

    @TempDir
    Path data;

    private RunningCollector running;
    private String token;

    @BeforeEach
    void start() throws Exception {
        running = RunningCollector.start(data, CLOCK);
        token = running.token("sql01", TokenStore.Kind.AGENT);
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
    }

    @Test
    void bothLengthsAre400AndTheConnectionClosesBeforeTheSmuggledRequest() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", running.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(concat(head("Content-Length: 4", "Transfer-Encoding: chunked"),
                    chunked(golden()), "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            InputStream in = socket.getInputStream();
            String answer = readAnswer(in);
            assertThat(answer).startsWith("HTTP/1.1 400").contains("Content-Length and Transfer-Encoding")
                    .contains("\"field\":\"Content-Length\"");
            assertThat(in.read()).as("the connection is closed after the 400; the request behind it gets no answer")
                    .isEqualTo(-1);
        }
        assertThat(StoreKinds.scalar(running.collector().database(), "SELECT COUNT(*) FROM reports")).isZero();
    }

    @Test
    void aChunkedReportAloneIsStoredAndItsConnectionServesTheNextRequest() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", running.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(concat(head("Transfer-Encoding: chunked"), chunked(golden()),
                    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            InputStream in = socket.getInputStream();
            assertThat(readAnswer(in)).startsWith("HTTP/1.1 202");
            assertThat(readAnswer(in)).startsWith("HTTP/1.1 200").contains("\"status\"");
        }
        assertThat(StoreKinds.scalar(running.collector().database(), "SELECT COUNT(*) FROM reports")).isEqualTo(1);
    }

    private byte[] head(String... framing) {
        StringBuilder s = new StringBuilder("POST /api/v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("Authorization: Bearer ").append(token).append("\r\nContent-Type: application/json\r\n");
        for (String f : framing) {
            s.append(f).append("\r\n");
        }
        return s.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] chunked(byte[] body) {
        return concat((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII), body,
                "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** One answer: its head and as much body as its Content-Length says (the collector's answers all carry one). */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before a complete answer: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static byte[] golden() {
        return GoldenReports.bytes(GoldenReports.COMPLETE);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
