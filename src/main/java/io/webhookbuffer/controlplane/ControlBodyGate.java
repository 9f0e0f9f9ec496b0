package io.webhookbuffer.controlplane;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.ingress.AnswerWriter;
import io.webhookbuffer.ingress.BodyReads;
import io.webhookbuffer.ingress.IngressConfig;
import io.webhookbuffer.ingress.QuarkusHttpInternals;

/**
 * The bound on a control command's body ({@link #MAX_BYTES}), kept before any of it is authenticated: a Vert.x route
 * ahead of RESTEasy (and of Quarkus's own 25 MiB ceiling) reads the body of every {@code /control} request itself and
 * hands the bytes to the resource in the routing context ({@link #body}). A {@code Content-Length} over the bound is
 * answered 413 at once, before a byte of the body is read (with {@code Expect: 100-continue}, before the sender sends
 * one); a chunked body, at the first chunk past it. A body not complete within {@code buffer.ingress.body-timeout} is
 * answered 408. Either refusal ends the connection. Why 413 and not 401 for an unsigned oversized command: the
 * signature covers the body, so checking it means reading the body the bound exists to refuse; the size is known from
 * the head, for free. Everything here runs on the request's event loop and never blocks; the MAC comes later
 * ({@link CommandAuthenticator}).
 */
@ApplicationScoped
public class ControlBodyGate {

    /**
     * 256 KiB. The largest legitimate command is a dead-letter replay or purge naming
     * {@link io.webhookbuffer.queue.DeadLetterStore#MAX_PER_COMMAND} ids: at most 20 bytes each with its comma
     * ({@code 9223372036854775807,}), 200,000 bytes, and room left for the whitespace of a pretty printer. A tenant
     * {@code PUT} with every field and its secrets is a few KiB.
     */
    public static final int MAX_BYTES = 256 * 1024;
    /** Ahead of Quarkus's ceiling check (its 413 has no body), beside the ingest gate's route. */
    static final int ORDER = QuarkusHttpInternals.BODY_ORDER;
    private static final String BODY = ControlBodyGate.class.getName() + ".body";
    private static final String PROBLEM_JSON = Problem.MEDIA_TYPE;

    private final AnswerWriter answers;
    private final ObjectMapper json;
    private final Vertx vertx;
    private final long timeoutMillis;

    public ControlBodyGate(AnswerWriter answers, ObjectMapper json, Vertx vertx, IngressConfig ingress) {
        this.answers = answers;
        this.json = json;
        this.vertx = vertx;
        this.timeoutMillis = ingress.bodyTimeout().toMillis();
    }

    void routes(@Observes Router router) {
        router.route().order(ORDER).handler(this::admit);
    }

    /**
     * The body the gate read for this command. Failure policy: fail closed; a control request the gate did not read
     * (a path it did not recognise as /control) is a failure, never an empty body.
     */
    static byte[] body(RoutingContext routing) {
        byte[] body = routing.get(BODY);
        if (body == null) {
            throw new IllegalStateException("the body of " + routing.normalizedPath() + " was not read by the gate");
        }
        return body;
    }

    /**
     * The first segment of {@code path} (normalized): what follows the leading slashes, up to the next {@code /} or
     * {@code ;}. How both this gate and the management port (ops) decide what is a {@code /control} request.
     */
    public static String firstSegment(String path) {
        int start = 0;
        while (start < path.length() && path.charAt(start) == '/') {
            start++;
        }
        int end = start;
        while (end < path.length() && path.charAt(end) != '/' && path.charAt(end) != ';') {
            end++;
        }
        return path.substring(start, end);
    }

    private void admit(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (path == null || !"control".equals(firstSegment(path))) {
            ctx.next();
            return;
        }
        String declared = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared != null && declaredOver(declared)) {
            refuse(ctx, tooLarge());
            return;
        }
        new Reading(ctx).start();
    }

    private static boolean declaredOver(String declared) {
        try {
            return Long.parseLong(declared.trim()) > MAX_BYTES;
        } catch (NumberFormatException e) {
            return false; // Netty refuses a malformed length before any route runs
        }
    }

    static Problem tooLarge() {
        return Problem.of(413, "Command too large", "body_too_large",
                "A control command's body may be at most " + MAX_BYTES + " bytes; nothing was read or applied.");
    }

    static Problem tooSlow() {
        return Problem.of(408, "Command too slow", "body_timeout",
                "The command's body did not arrive within buffer.ingress.body-timeout; nothing was applied.");
    }

    private void refuse(RoutingContext ctx, Problem problem) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // a record of strings and an int always serialises
        }
        answers.refuse(ctx, problem.status(), PROBLEM_JSON, body);
    }

    /** One body being read, within the bound and the deadline. */
    private final class Reading {
        private final RoutingContext ctx;
        private final Buffer body = Buffer.buffer();
        private long deadline = -1;
        private boolean over;

        Reading(RoutingContext ctx) {
            this.ctx = ctx;
        }

        void start() {
            if (ctx.request().isEnded()) {
                complete();
                return;
            }
            deadline = BodyReads.start(vertx, ctx, timeoutMillis, () -> stop(tooSlow()), this::chunk, this::complete);
        }

        private void chunk(Buffer chunk) {
            if (over) {
                return;
            }
            // A declared body cannot outgrow its Content-Length (Netty ends the request there): the cap is for the rest.
            if (body.length() + chunk.length() > MAX_BYTES) {
                stop(tooLarge());
                return;
            }
            body.appendBuffer(chunk);
        }

        private void complete() {
            if (over) {
                return;
            }
            over = true;
            vertx.cancelTimer(deadline);
            ctx.put(BODY, body.getBytes());
            ctx.next();
        }

        private void stop(Problem problem) {
            if (over) {
                return;
            }
            over = true;
            vertx.cancelTimer(deadline);
            refuse(ctx, problem);
        }
    }
}
