package io.qatwatch.collector.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * HTTP/1.1 written by hand over a plain socket: what no well-behaved client library sends (a NUL in a header, a body
 * shorter than its Content-Length, a chunked body without its last chunk, headers a byte at a time), with the
 * answer and when the server closed the connection.
 */
public final class RawHttp {

    /** One step of a client: bytes to send, or a pause. */
    public sealed interface Step permits Send, Pause {
    }

    public record Send(byte[] bytes) implements Step {
    }

    public record Pause(Duration duration) implements Step {
    }

    /**
     * What came back.
     *
     * @param status        the answer's status, -1 when the server closed the connection without one
     * @param body          the answer's body as text (what arrived of it)
     * @param closed        the server closed the connection before {@code wait} ran out
     * @param answeredAfter time from the first byte sent to the status line, null without an answer
     * @param closedAfter   time from the first byte sent to the close, null when it stayed open
     */
    public record Answer(int status, String head, String body, boolean closed, Duration answeredAfter, Duration closedAfter) {
    }

    private RawHttp() {
    }

    public static Step send(String text) {
        return new Send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public static Step send(byte[] bytes) {
        return new Send(bytes);
    }

    public static Step pause(Duration d) {
        return new Pause(d);
    }

    /** A request head: {@code POST /api/v1/reports} with these header lines, ending in the blank line. */
    public static String head(String... headers) {
        StringBuilder s = new StringBuilder("POST /api/v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String h : headers) {
            s.append(h).append("\r\n");
        }
        return s.append("\r\n").toString();
    }

    /**
     * Runs the steps against {@code port} on loopback (a send that fails because the server closed the connection
     * ends them), then reads until the server closes or {@code wait} has passed since the first byte.
     */
    public static Answer exchange(int port, List<Step> steps, Duration wait) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setTcpNoDelay(true);
            long start = System.nanoTime();
            long deadline = start + wait.toNanos();
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            Long answeredAt = null;
            boolean closed = false;
            try {
                for (Step step : steps) {
                    if (step instanceof Send s) {
                        out.write(s.bytes());
                        out.flush();
                    } else if (step instanceof Pause p) {
                        long until = System.nanoTime() + p.duration().toNanos();
                        // keep reading while pausing: the answer may come (and the connection close) meanwhile
                        while (System.nanoTime() < until && !closed) {
                            socket.setSoTimeout((int) Math.max(1, (until - System.nanoTime()) / 1_000_000));
                            closed = read(in, got);
                            if (answeredAt == null && got.size() > 0) {
                                answeredAt = System.nanoTime();
                            }
                        }
                        if (closed) {
                            break;
                        }
                    }
                }
            } catch (SocketException serverClosed) {
                closed = true;
            }
            while (!closed && System.nanoTime() < deadline) {
                socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                try {
                    closed = read(in, got);
                } catch (SocketException reset) {
                    closed = true;
                }
                if (answeredAt == null && got.size() > 0) {
                    answeredAt = System.nanoTime();
                }
            }
            long closedAt = System.nanoTime();
            String text = got.toString(StandardCharsets.ISO_8859_1);
            int status = -1;
            String head = "";
            String body = "";
            if (text.startsWith("HTTP/1.")) {
                status = Integer.parseInt(text.substring(9, 12));
                int end = text.indexOf("\r\n\r\n");
                head = end < 0 ? text : text.substring(0, end);
                body = end < 0 ? "" : new String(got.toByteArray(), end + 4, got.size() - end - 4, StandardCharsets.UTF_8);
            }
            return new Answer(status, head, body, closed,
                    answeredAt == null ? null : Duration.ofNanos(answeredAt - start),
                    closed ? Duration.ofNanos(closedAt - start) : null);
        }
    }

    /** Reads what is there; true when the server closed the connection. */
    private static boolean read(InputStream in, ByteArrayOutputStream into) throws IOException {
        byte[] buf = new byte[8192];
        try {
            int n = in.read(buf);
            if (n < 0) {
                return true;
            }
            into.write(buf, 0, n);
            return false;
        } catch (SocketTimeoutException quiet) {
            return false;
        }
    }

    /** Steps from a list, for readability at the call site. */
    public static List<Step> steps(Step... steps) {
        return new ArrayList<>(List.of(steps));
    }
}
