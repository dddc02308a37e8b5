package io.qatwatch.collector.web.server;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Refuses a request that carries both {@code Content-Length} and {@code Transfer-Encoding: chunked}: RFC 9112 §6.1
 * lets a server read such a request by its chunks but says it "MUST close the connection after responding", since
 * a proxy in front that went by the length would take the rest for a second, smuggled request. The collector answers
 * 400 and closes. Netty drops the {@code Content-Length} of such a request before anyone sees it, so each connection's
 * decoder is one that keeps it.
 */
final class AmbiguousLength {

    private static final String DECODER = "httpDecoder";
    /**
     * Connections refused here: a request pipelined behind the refused one is not answered either. Weak: a closed
     * connection leaves by itself (its one close handler is {@link HeaderDeadline}'s).
     */
    private final Set<HttpConnection> closing = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    /** Puts the decoder that keeps both headers on a new HTTP/1.x connection (before it has read a byte). */
    void watch(HttpConnection connection, HttpServerOptions options) {
        if (connection instanceof ConnectionBase base) {
            ChannelPipeline pipeline = base.channel().pipeline();
            if (pipeline.get(DECODER) instanceof VertxHttpRequestDecoder) {
                pipeline.replace(DECODER, DECODER, new KeepingDecoder(options));
            }
        }
    }

    /**
     * True when the request was answered here: 400 naming the two headers, and the connection closed after it (a
     * request already read behind it on the same connection gets no answer).
     */
    boolean refused(HttpServerRequest request) {
        HttpConnection connection = request.connection();
        if (closing.contains(connection)) {
            connection.close();
            return true;
        }
        String encoding = request.getHeader(HttpHeaderNames.TRANSFER_ENCODING);
        if (request.getHeader(HttpHeaderNames.CONTENT_LENGTH) == null || encoding == null
                || !encoding.toLowerCase().contains("chunked")) {
            return false;
        }
        closing.add(connection);
        request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close").putHeader("X-Content-Type-Options", "nosniff")
                .end(new JsonObject().put("error", "both Content-Length and Transfer-Encoding: chunked; send one of them "
                        + "(RFC 9112 section 6.1); the connection is closed").put("field", "Content-Length").encode());
        connection.close();
        return true;
    }

    /** Vert.x's request decoder, but a chunked request keeps the {@code Content-Length} it came with. */
    private static final class KeepingDecoder extends VertxHttpRequestDecoder {

        KeepingDecoder(HttpServerOptions options) {
            super(options);
        }

        @Override
        protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
            List<String> lengths = message.headers().getAll(HttpHeaderNames.CONTENT_LENGTH);
            super.handleTransferEncodingChunkedWithContentLength(message);
            message.headers().add(HttpHeaderNames.CONTENT_LENGTH, lengths);
        }
    }
}
