package io.webhookbuffer.ingress;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.tenant.Tenant;

/**
 * Sends an ingest answer ({@link IngestAnswer}) from a Vert.x route: reports it to the metrics
 * ({@link IngressListener}), keeps a refusal to a known tenant ({@link RefusalLog}), and writes it: the status, its one header,
 * the JSON content type and the body as the application's Jackson {@code ObjectMapper} writes it; reported and kept in
 * the tenant's sinks ({@link Sinks#of}), this replica's for a request that named no tenant. Two shapes on the wire,
 * each pinned byte for byte by {@code IngestAnswersTests}: the answer to a request read in full ({@link #send}) and a
 * refusal given from the request head or the body's read ({@link #sendEarly}). An answer given before the request was
 * read in full ends the connection: what the sender still sends is read and dropped for at most {@link #LINGER_MILLIS}
 * and {@link #LINGER_BYTES} (so that a client that writes its whole body before it reads finds the answer, not a
 * reset), then the connection closes. Those bytes are dropped as they come off the socket ({@link Drop}), never copied
 * onto the heap.
 */
@ApplicationScoped
public class AnswerWriter {

    static final long LINGER_MILLIS = 1000;
    static final long LINGER_BYTES = 1024 * 1024;
    private static final CharSequence JSON = HttpHeaders.createOptimized("application/json");
    private static final String CONTENT_TYPE = "Content-Type";
    private static final CharSequence JSON_UTF8 = HttpHeaders.createOptimized("application/json;charset=UTF-8");
    static final String TEXT_UTF8 = "text/plain;charset=UTF-8";
    static final String NOSNIFF_HEADER = "X-Content-Type-Options";
    static final String NOSNIFF = "nosniff";
    static final String NO_STORE = "no-store";

    private final ObjectMapper json;
    private final Vertx vertx;
    private final Sinks sinks;
    private final RequestLog log;

    public AnswerWriter(ObjectMapper json, Vertx vertx, Sinks sinks, RequestLog log) {
        this.json = json;
        this.vertx = vertx;
        this.sinks = sinks;
        this.log = log;
    }

    /**
     * Sends the answer to a request read in full (the ingest route's), for {@code tenant} (null when there is none),
     * taken at {@code started} with a body of {@code bodyBytes}: reported, kept, logged ({@link RequestLog}), written.
     */
    void send(RoutingContext ctx, Tenant tenant, IngestAnswer answer, long started, long bodyBytes) {
        report(ctx, tenant, answer, started, bodyBytes);
        log.answered(ctx, answer.status(), answer.reply());
        write(ctx.response(), answer);
    }

    /**
     * Sends a refusal given from the request's head or while its body was read, reported and kept as {@link #send}
     * does; {@code close} ends the connection after it in any case.
     */
    void sendEarly(RoutingContext ctx, Tenant tenant, IngestAnswer answer, long started, long bodyBytes,
            boolean close) {
        report(ctx, tenant, answer, started, bodyBytes);
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        if (answer.header() != null) {
            response.putHeader(answer.header(), answer.value());
        }
        end(ctx, answer.status(), JSON, encode(answer.reply()), close);
    }

    /** The metrics and the tenant's refusals, in the tenant's sinks. */
    private void report(RoutingContext ctx, Tenant tenant, IngestAnswer answer, long started, long bodyBytes) {
        HttpServerRequest request = ctx.request();
        TenantSinks to = sinks.of(tenant);
        answer.reportTo(to.metrics(), started);
        if (tenant != null) {
            to.refusals().record(tenant, answer, request.headers().names(), bodyBytes, request.remoteAddress());
        }
    }

    /**
     * Writes a refusal from a route outside the ingest path (the control plane's body bound) unless the response is
     * over: {@code body} as {@code contentType}; a request not read in full ends the connection, as for the gate's.
     */
    public void refuse(RoutingContext ctx, int status, CharSequence contentType, byte[] body) {
        HttpServerResponse response = ctx.response();
        if (!response.ended() && !response.closed()) {
            end(ctx, status, contentType, body, false);
        }
    }

    private void end(RoutingContext ctx, int status, CharSequence contentType, byte[] body, boolean close) {
        HttpServerResponse response = ctx.response();
        HttpServerRequest request = ctx.request();
        boolean unread = !request.isEnded();
        response.setStatusCode(status);
        response.putHeader(HttpHeaders.CONTENT_TYPE, contentType);
        if (unread || close) {
            response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
        response.end(Buffer.buffer(body));
        if (unread) {
            lingerThenClose(request);
        } else if (close) {
            request.connection().close();
        }
    }

    /**
     * The answer to a request read in full: {@code content-length} first, then the answer's header and
     * {@code Content-Type: application/json;charset=UTF-8} in the order of their names.
     */
    private void write(HttpServerResponse response, IngestAnswer answer) {
        if (response.ended() || response.closed()) {
            return;
        }
        if (answer.text() != null) {
            writeText(response, answer);
            return;
        }
        byte[] body = encode(answer.reply());
        response.setStatusCode(answer.status());
        response.putHeader(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length));
        boolean headerFirst = answer.header() != null && answer.header().compareToIgnoreCase(CONTENT_TYPE) < 0;
        if (headerFirst) {
            response.putHeader(answer.header(), answer.value());
        }
        response.putHeader(CONTENT_TYPE, JSON_UTF8);
        if (answer.header() != null && !headerFirst) {
            response.putHeader(answer.header(), answer.value());
        }
        response.end(Buffer.buffer(body));
    }

    /**
     * A handshake answered as text (Twitch's challenge): a browser must not sniff it, a cache must not keep it. An
     * empty text is an answer without a body (Xero's): no content type, {@code content-length: 0}.
     */
    private static void writeText(HttpServerResponse response, IngestAnswer answer) {
        byte[] body = answer.text().getBytes(StandardCharsets.UTF_8);
        response.setStatusCode(answer.status());
        if (body.length == 0) {
            response.putHeader("Cache-Control", NO_STORE);
            response.putHeader(HttpHeaders.CONTENT_LENGTH, "0");
            response.end();
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length));
        // In the order of their names, as write keeps them.
        response.putHeader("Cache-Control", NO_STORE);
        response.putHeader(CONTENT_TYPE, TEXT_UTF8);
        response.putHeader(NOSNIFF_HEADER, NOSNIFF);
        response.end(Buffer.buffer(body));
    }

    /**
     * Reads and drops what the sender still sends, for at most {@link #LINGER_MILLIS} and {@link #LINGER_BYTES} (past
     * those, reading stops and the kernel's buffers take the rest until the connection closes), then closes; sooner
     * when the sender closes, or when what Vert.x had read already ends the request.
     */
    private void lingerThenClose(HttpServerRequest request) {
        HttpConnection connection = request.connection();
        long timer = vertx.setTimer(LINGER_MILLIS, id -> connection.close());
        long[] dropped = { 0 };
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > LINGER_BYTES) {
                request.pause();
            }
        });
        request.endHandler(end -> {
            vertx.cancelTimer(timer);
            connection.close();
        });
        request.resume();
        if (connection instanceof ConnectionBase base && base.channel().isActive()) {
            // Vert.x copies every buffer it reads onto the heap before a handler sees it: 64 uploads refused at once
            // made about 55 MB/s of garbage and a young collection every 4 s. Dropped at the socket, they make none.
            base.channel().pipeline().addFirst(Drop.NAME, new Drop(LINGER_BYTES - dropped[0]));
        }
    }

    /**
     * The first handler of a connection whose answer is written: releases every buffer read off the socket, unparsed,
     * and stops reading once more than {@code budget} bytes were dropped. The end of each read still goes on to Vert.x,
     * which flushes what it wrote during the read (the answer, when it was written in the read that brought the head).
     */
    static final class Drop extends ChannelInboundHandlerAdapter {

        static final String NAME = "webhook-buffer-linger-drop";
        private long budget;

        Drop(long budget) {
            this.budget = budget;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf bytes) {
                budget -= bytes.readableBytes();
            }
            ReferenceCountUtil.release(msg);
            if (budget < 0) {
                ctx.channel().config().setAutoRead(false);
            }
        }
    }

    private byte[] encode(IngressReply reply) {
        try {
            return json.writeValueAsBytes(reply);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an ingest answer did not serialise", e); // a record of strings: never
        }
    }
}
