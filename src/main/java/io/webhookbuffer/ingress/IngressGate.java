package io.webhookbuffer.ingress;

import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.tenant.LookupRefused;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.verify.BodyCheck;
import io.webhookbuffer.verify.SignatureVerifier;

/**
 * What a request may cost before its sender is authenticated (ARCHITECTURE invariant 9; docs/architecture.md "What
 * an unauthenticated request costs"). Two Vert.x routes, which run once the request head is in and before any of the
 * body is read:
 * <ul>
 * <li>every request: at most {@code buffer.ingress.max-header-count} header lines (431), no empty and no second
 * {@code Host} line, and for HTTP/1.1 one that Vert.x can parse (RFC 9112 §3.2: 400 {@code invalid_host}; a missing or
 * unparseable Host fails in Vert.x Web's router before any route runs, and is answered here rather than by Quarkus's
 * error page with an ERROR line). On the webhook port the Host lines are judged as they arrived ({@link EdgePort}):
 * behind a trusted proxy Quarkus rewrites them to one before this route runs;</li>
 * <li>{@code /webhook/{id}}: a {@code GET} with a query string is a provider's check ({@link QueryHandshakes}), any
 * other method but {@code POST} is 405 ({@link IngestRoute#methodNotAllowed}). For {@code POST}, a
 * {@code Content-Length} above the hard ceiling is 413 at once; otherwise the body stays paused while the tenant is
 * looked up: an unknown or inactive tenant is 404, a {@code Content-Length} above the tenant's limit 413, before a byte
 * of the body is read. Then the body is read with a deadline (408), a running cap (413 at the first chunk past the
 * limit when its length was not declared) and the tenant's share of the replica's budget ({@link InFlightBytes}) taken
 * as its room grows with the bytes that arrive ({@link BodyRoom}; 503 past the share); a large one off the heap with
 * its scheme's check ({@link CheckedBody}), for which the tenant's slot of large-body checks is taken before a byte is
 * read (503 {@code verification_busy} when a flood of bad signatures took them). The tenant and the bytes go on to
 * {@link IngestRoute}, whose {@link IngestService} verifies them; the budget is given back with the answer.</li>
 * </ul>
 * An answer given before the request was read in full ends the connection ({@link AnswerWriter}). Everything here runs
 * on the request's event loop and never blocks.
 */
@ApplicationScoped
public class IngressGate {

    private static final Logger LOG = Logger.getLogger(IngressGate.class);
    /** Every request, first (ops.RequestLogging gives the request its id just before). */
    public static final int HEAD_ORDER = QuarkusHttpInternals.HEAD_ORDER;
    /** The ingest path: before Quarkus's own ceiling check (its 413 has no body), so every ingest answer is JSON. */
    static final int INGEST_ORDER = QuarkusHttpInternals.BODY_ORDER;

    /**
     * A request the gate let through: its tenant (known, active), its whole body within every limit, on the heap
     * ({@code body}) or, for a large one, off it with its scheme's check ({@code held}; {@code body} is then null); and
     * where the tenant's effects go ({@link Sinks#of}, resolved once at its lookup).
     */
    record Admitted(Tenant tenant, byte[] body, CheckedBody held, TenantSinks sinks) {

        Admitted(Tenant tenant, byte[] body, TenantSinks sinks) {
            this(tenant, body, null, sinks);
        }

        int length() {
            return held != null ? held.size() : body.length;
        }

        /** Frees a body held off the heap and its slot (again is harmless). */
        void letGo() {
            if (held != null) {
                held.letGo();
            }
        }
    }

    /**
     * Most header lines a request may carry (431 beyond); the head's bytes are capped by Quarkus
     * ({@code quarkus.http.limits.max-header-size}). Providers send 10 to 30; 100 leaves room for every proxy on the way
     * and still bounds the per-line work before the tenant is known. Was {@code buffer.ingress.max-header-count}.
     */
    static final int MAX_HEADER_COUNT = 100;

    private final Sinks tenants;
    private final InFlightBytes inFlight;
    private final VerificationBudget verificationBudget;
    private final AnswerWriter writer;
    private final IngestRoute route;
    private final QueryHandshakes queryHandshakes;
    private final BufferClock clock;
    private final EdgePort edge;
    private final int checkFrom;
    private final Vertx vertx;
    private final int defaultLimit;
    private final long ceiling;
    private final long bodyTimeoutMillis;
    private final long busyRetryAfter;
    private final long unavailableRetryAfter;

    public IngressGate(Sinks tenants, InFlightBytes inFlight, AnswerWriter writer, EdgePort edge,
            IngestRoute route, QueryHandshakes queryHandshakes, Vertx vertx, IngressConfig config,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize ceiling,
            VerificationBudget verificationBudget, BufferClock clock) {
        this.route = route;
        this.edge = edge;
        this.queryHandshakes = queryHandshakes;
        this.clock = clock;
        this.checkFrom = config.verification().offloadBytes();
        this.verificationBudget = verificationBudget;
        this.tenants = tenants;
        this.inFlight = inFlight;
        this.writer = writer;
        this.vertx = vertx;
        this.defaultLimit = config.maxBodyBytes();
        this.ceiling = ceiling.asLongValue();
        this.bodyTimeoutMillis = config.bodyTimeout().toMillis();
        this.busyRetryAfter = IngestResult.BUSY_RETRY_AFTER_SECONDS;
        this.unavailableRetryAfter = IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS;
    }

    void routes(@Observes Router router) {
        router.route().order(HEAD_ORDER).handler(this::checkHead).failureHandler(this::refuseUnroutableHost);
        router.route("/webhook/:tenantId").order(INGEST_ORDER).handler(this::ingestPath);
    }

    /** The ingest path, by method: POST is an event, a GET with a query string a provider's check, the rest 405. */
    private void ingestPath(RoutingContext ctx) {
        HttpMethod method = ctx.request().method();
        if (HttpMethod.POST.equals(method)) {
            admit(ctx);
        } else if (!HttpMethod.GET.equals(method) || !queryHandshakes.handle(ctx)) {
            route.methodNotAllowed(ctx);
        }
    }

    private void checkHead(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        int lines = 0;
        for (Map.Entry<String, String> ignored : request.headers()) {
            lines++;
        }
        if (lines > MAX_HEADER_COUNT) {
            LOG.debugf("refused %s %s: %d header lines", request.method(), request.path(), lines);
            writer.sendEarly(ctx, null, IngestAnswer.tooManyHeaders(), System.nanoTime(), 0, true);
        } else if (!edge.usableHost(request)) {
            LOG.debugf("refused %s %s: no single usable Host line", request.method(), request.path());
            writer.sendEarly(ctx, null, IngestAnswer.invalidHost(), System.nanoTime(), 0, true);
        } else if (hasDotSegment(request.path())) {
            LOG.debugf("refused %s %s: a dot segment in the path", request.method(), request.path());
            writer.sendEarly(ctx, null, IngestAnswer.invalidPath(), System.nanoTime(), 0, true);
        } else {
            ctx.next();
        }
    }

    /**
     * Whether the path as sent has a {@code .} or {@code ..} segment, spelt plainly or percent-encoded ({@code %2e}).
     * The router matches the path with them removed (RFC 3986 §5.2.4), so {@code /webhook/../q/health/ready} would be
     * served as readiness while a proxy in front, filtering on the path it saw, took it for a webhook. No URL this
     * service hands out has one, so such a request is refused, never rewritten.
     */
    static boolean hasDotSegment(String path) {
        if (path == null) {
            return false;
        }
        int start = 0;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            String segment = path.substring(start, end < 0 ? path.length() : end).replace("%2e", ".").replace("%2E", ".");
            if (".".equals(segment) || "..".equals(segment)) {
                return true;
            }
            if (end < 0) {
                return false;
            }
            start = end + 1;
        }
        return false;
    }

    /**
     * Vert.x Web fails an HTTP/1.1 request without a Host, or with one it cannot parse, before any route runs (400);
     * answered here, it is the documented JSON 400 at DEBUG instead of Quarkus's error page and an ERROR line. So is a
     * request line that says HTTP/2.0 (an h2 preface {@code PRI * HTTP/2.0} on this HTTP/1.1-only server): it has no
     * Host, and its path {@code *} fails too (404 once a trusted proxy's parsing gave it a Host). HTTP/1.0 needs no
     * Host. The judgement is {@link EdgePort#usableHost}'s, as for {@link #checkHead}.
     */
    private void refuseUnroutableHost(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!edge.usableHost(request)) {
            LOG.debugf("refused %s %s: no usable Host", request.method(), request.path());
            writer.sendEarly(ctx, null, IngestAnswer.invalidHost(), System.nanoTime(), 0, true);
        } else {
            ctx.next();
        }
    }

    private void admit(RoutingContext ctx) {
        long started = System.nanoTime();
        String tenantId = ctx.pathParam("tenantId");
        if (!Tenant.isValidId(tenantId)) {
            writer.sendEarly(ctx, null, IngestAnswer.notFound(), started, 0, false);
            return;
        }
        long declared = declaredLength(ctx.request());
        if (declared > ceiling) {
            writer.sendEarly(ctx, null, IngestAnswer.tooLarge(), started, 0, false); // no tenant may take it: no lookup
            return;
        }
        ctx.request().pause(); // not a byte of the body until the tenant and its limit are known
        CompletableFuture<Tenant> lookup = tenants.find(tenantId).toCompletableFuture();
        whenLookedUp(lookup, () -> admit(ctx, lookup, declared, started));
    }

    /** Runs {@code then} once the lookup is complete: at once when it is, else on the request's context. */
    static void whenLookedUp(CompletableFuture<Tenant> lookup, Runnable then) {
        if (lookup.isDone()) {
            then.run();
        } else {
            Context context = Vertx.currentContext();
            lookup.whenComplete((tenant, failure) -> context.runOnContext(v -> then.run()));
        }
    }

    /**
     * The answer to a complete lookup that failed, or null when it has its tenant ({@code lookup.join()}, null for
     * none). Failure policy: fail closed and ask for a retry (503). Without the tenant nothing can be checked, so
     * nothing of the request is read. A lookup its budget refused was never made: 503, never 404.
     */
    static IngestAnswer lookupFailure(CompletableFuture<Tenant> lookup, long busyRetryAfter,
            long unavailableRetryAfter) {
        try {
            lookup.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return e instanceof LookupRefused || e.getCause() instanceof LookupRefused
                    ? IngestAnswer.lookupBusy(busyRetryAfter)
                    : IngestAnswer.unavailable(unavailableRetryAfter);
        }
    }

    private void admit(RoutingContext ctx, CompletableFuture<Tenant> lookup, long declared, long started) {
        IngestAnswer failed = lookupFailure(lookup, busyRetryAfter, unavailableRetryAfter);
        if (failed != null) {
            writer.sendEarly(ctx, null, failed, started, 0, false);
            return;
        }
        Tenant tenant = lookup.join();
        if (tenant == null) {
            writer.sendEarly(ctx, null, IngestAnswer.notFound(), started, 0, false);
            return;
        }
        if (!tenant.active()) {
            writer.sendEarly(ctx, tenant, IngestAnswer.notFound(), started, declared, false);
            return;
        }
        if (ctx.response().closed()) {
            return; // the sender left while the tenant was looked up: nothing taken, nothing to answer
        }
        TenantSinks sinks = tenants.of(tenant);
        int limit = (int) Math.min(tenant.maxBodyBytes(defaultLimit), ceiling);
        if (declared > limit) {
            sinks.usage().of(tenant.id()).increment(UsageMetric.RECEIVED);
            writer.sendEarly(ctx, tenant, IngestAnswer.tooLarge(), started, declared, false);
        } else {
            BodyCheck check = declared >= checkFrom || declared < 0 ? bodyCheck(ctx.request(), tenant) : null;
            VerificationBudget.Permit permit = check == null || check.decided() ? null
                    : verificationBudget.permit(tenant.id());
            if (check != null && !check.decided() && permit == null) {
                // A flood of bad signatures to this tenant took its share of large-body checks: 503, nothing read.
                writer.sendEarly(ctx, tenant, IngestAnswer.verificationBusy(), started, declared, false);
                return;
            }
            new BodyRead(ctx, tenant, sinks, limit, declared, started,
                    check == null ? null : new CheckedBody(check, permit)).start();
        }
    }

    /** The tenant's scheme's check as the body arrives, or null when it needs the whole body (or has no scheme). */
    private BodyCheck bodyCheck(HttpServerRequest request, Tenant tenant) {
        SignatureVerifier verifier = tenant.verifier();
        return verifier == null ? null : verifier.bodyCheck(request::getHeader, tenant.secrets(), clock.millis());
    }

    /** The declared body length; -1 when there is none (chunked, or no body). Netty has checked its syntax. */
    private static long declaredLength(HttpServerRequest request) {
        String value = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return -1; // read with the running cap like a chunked body
        }
    }

    /**
     * One request's body as it arrives: the running cap, the deadline and its share of the replica's budget; with a
     * {@link CheckedBody}, its bytes off the heap with its scheme's check.
     */
    private final class BodyRead {

        private final RoutingContext ctx;
        private final Tenant tenant;
        private final TenantSinks sinks;
        private final int limit;
        private final long started;
        /** The declared length, or -1. */
        private final long expected;
        /** What the body may grow to: its declared length, else the tenant's limit. */
        private final int cap;
        /** Null when the body is read onto the heap ({@link #heap}) and verified later. */
        private final CheckedBody checked;
        private final HeapBody heap;
        private final BodyRoom room;
        private int size;
        /** Budget held for this request: the room its arrived bytes are read into (the bytes, when not kept). */
        private long taken;
        private long deadline;
        /** Answered, or read in full and passed on: later chunks and timers change nothing. */
        private boolean over;

        BodyRead(RoutingContext ctx, Tenant tenant, TenantSinks sinks, int limit, long declaredLength, long started,
                CheckedBody checked) {
            this.ctx = ctx;
            this.tenant = tenant;
            this.sinks = sinks;
            this.limit = limit;
            this.started = started;
            this.checked = checked;
            this.expected = declaredLength;
            this.cap = declaredLength >= 0 ? (int) declaredLength : limit;
            this.heap = checked == null ? new HeapBody() : null;
            this.room = checked == null ? heap : checked;
        }

        void start() {
            ctx.addEndHandler(answered -> {
                vertx.cancelTimer(deadline);
                inFlight.giveBack(tenant.id(), taken);
                taken = 0;
                letGo();
            });
            if (checked != null && !checked.open(cap)) {
                refuse(IngestAnswer.busy(busyRetryAfter)); // direct memory ran out after all: retry later
                return;
            }
            deadline = BodyReads.start(vertx, ctx, bodyTimeoutMillis, () -> refuse(IngestAnswer.bodyTimeout()),
                    this::chunk, this::complete);
        }

        private void chunk(Buffer chunk) {
            if (over) {
                return;
            }
            int length = chunk.length();
            // A declared body cannot outgrow its Content-Length (Netty ends the request there): the cap is for the rest.
            if (length > cap - size) {
                sinks.usage().of(tenant.id()).increment(UsageMetric.RECEIVED);
                refuse(IngestAnswer.tooLarge());
            } else if (!roomFor(size + length)) {
                refuse(IngestAnswer.busy(busyRetryAfter));
            } else {
                room.add(chunk);
                size += length;
            }
        }

        /**
         * Room for {@code needed} bytes, its budget taken before it grows; false (nothing grown) when the tenant's
         * share cannot take it. A declared length is a promise, not bytes: the room grows as they arrive, up to it
         * ({@link #cap}), so a head that declares a body and sends none holds nothing. Bytes not kept (the headers
         * refused already) count as they arrive. The copy as an array grows, old and new at once, is not counted: one
         * copy, at most one per event loop.
         */
        private boolean roomFor(int needed) {
            int now = room.room();
            int target = now < 0 ? needed : needed <= now ? now : BodyRoom.grown(now, needed, cap);
            if (target > taken && !inFlight.tryTake(tenant.id(), target - taken)) {
                return false;
            }
            taken = Math.max(taken, target);
            if (target > now && now >= 0) {
                room.grow(target);
            }
            return true;
        }

        private void complete() {
            if (over) {
                return;
            }
            over = true;
            vertx.cancelTimer(deadline);
            route.answer(ctx, checked == null ? new Admitted(tenant, heap.take(), sinks)
                    : new Admitted(tenant, null, checked, sinks));
        }

        private void letGo() {
            if (checked != null) {
                checked.letGo();
            }
        }

        private void refuse(IngestAnswer answer) {
            if (!over) {
                over = true;
                vertx.cancelTimer(deadline);
                writer.sendEarly(ctx, tenant, answer, started, expected >= 0 ? expected : size, false);
                letGo();
            }
        }
    }
}
