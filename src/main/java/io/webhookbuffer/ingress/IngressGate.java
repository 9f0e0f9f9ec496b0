package io.webhookbuffer.ingress;

import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.ActorConfig;
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.tenant.LookupRefused;
import io.webhookbuffer.tenant.RehearsalTenant;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.verify.BodyCheck;
import io.webhookbuffer.verify.SignatureVerifier;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * What a request may cost before its sender is authenticated (ARCHITECTURE invariant 9; docs/architecture.md "What
 * an unauthenticated request costs"). Two Vert.x routes ahead of RESTEasy, which run once the request head is in and
 * before any of the body is read:
 * <ul>
 * <li>every request: at most {@code buffer.ingress.max-header-count} header lines (431), no empty and no second
 * {@code Host} line, and for HTTP/1.1 one that Vert.x can parse (RFC 9112 §3.2: 400 {@code invalid_host}; a missing or
 * unparseable Host fails in Vert.x Web's router before any route runs, and is answered here rather than by Quarkus's
 * error page with an ERROR line);</li>
 * <li>{@code POST /webhook/{id}}: a {@code Content-Length} above the hard ceiling is 413 at once; otherwise the body
 * stays paused while the tenant is looked up: an unknown or inactive tenant is 404, a {@code Content-Length} above the
 * tenant's limit 413, before a byte of the body is read. Then the body is read with a deadline (408), a running cap
 * (413 at the first chunk past the limit when its length was not declared) and the tenant's share of the replica's
 * budget ({@link InFlightBytes}) taken as its room grows with the bytes that arrive ({@link BodyRoom}; 503 past the
 * share); a large one, off the heap until it verifies ({@link CheckedBody}). The tenant and the bytes go on to
 * {@link DirectIngest}, which answers from this route ({@code buffer.ingress.direct-route}, the default), or else to
 * {@link WebhookResource} in the routing context; the budget is given back with the answer.</li>
 * </ul>
 * An answer given before the request was read in full ends the connection ({@link AnswerWriter}). HTTP/1.x only
 * ({@code quarkus.http.http2=false}, checked at start-up): RESTEasy cannot take an HTTP/2 request whose stream the gate
 * has read to its end. Everything here runs on the request's event loop and never blocks.
 */
@ApplicationScoped
public class IngressGate {

    private static final Logger LOG = Logger.getLogger(IngressGate.class);
    private static final String ADMITTED = IngressGate.class.getName() + ".admitted";
    /** Every request, first (ops.RequestLogging gives the request its id just before). */
    public static final int HEAD_ORDER = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 2;
    /** The ingest path: before Quarkus's own ceiling check (its 413 has no body), so every ingest answer is JSON. */
    static final int INGEST_ORDER = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1;

    /**
     * A request the gate let through: its tenant (known, active), its whole body within every limit; whether it is a
     * warm-up rehearsal ({@link RehearsalTenant}: no metric counts it); its length; for a body checked off the heap,
     * what the check said ({@code NONE}: it verified, and is not MACed again; a failure: why, and {@code body} is
     * empty), else null (the ingest path verifies it).
     */
    record Admitted(Tenant tenant, byte[] body, boolean rehearsal, int length, VerificationFailure checked) {
        Admitted(Tenant tenant, byte[] body, boolean rehearsal) {
            this(tenant, body, rehearsal, body.length, null);
        }

        String tenantId() {
            return tenant.id();
        }
    }

    private final TenantDirectory tenants;
    private final InFlightBytes inFlight;
    private final UsageCounters usage;
    private final IngressListener listener;
    private final VerificationBudget verificationBudget;
    private final AnswerWriter writer;
    private final DirectIngest direct;
    private final RehearsalTenant rehearsal;
    private final RefusalLog refusals;
    private final VerificationPool pool;
    private final ReceiveClock clock;
    private final int checkFrom;
    private final Vertx vertx;
    private final int defaultLimit;
    private final long ceiling;
    private final long bodyTimeoutMillis;
    private final int maxHeaderCount;
    private final long busyRetryAfter;
    private final long unavailableRetryAfter;

    public IngressGate(TenantDirectory tenants, InFlightBytes inFlight, UsageCounters usage, IngressListener listener,
            AnswerWriter writer, DirectIngest direct, Vertx vertx, IngressConfig config, ActorConfig actor,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize ceiling,
            VerificationBudget verificationBudget, RehearsalTenant rehearsal, RefusalLog refusals, ReceiveClock clock,
            VerificationPool pool) {
        this.refusals = refusals;
        this.pool = pool;
        this.clock = clock;
        this.checkFrom = config.verification().offloadBytes();
        this.verificationBudget = verificationBudget;
        this.rehearsal = rehearsal;
        this.tenants = tenants;
        this.inFlight = inFlight;
        this.usage = usage;
        this.listener = listener;
        this.writer = writer;
        this.direct = config.directRoute() ? direct : null;
        this.vertx = vertx;
        this.defaultLimit = config.maxBodyBytes();
        this.ceiling = ceiling.asLongValue();
        this.bodyTimeoutMillis = config.bodyTimeout().toMillis();
        this.maxHeaderCount = config.maxHeaderCount();
        this.busyRetryAfter = IngestResult.BUSY_RETRY_AFTER_SECONDS;
        this.unavailableRetryAfter = actor.unavailableRetryAfterSeconds();
    }

    void routes(@Observes Router router) {
        router.route().order(HEAD_ORDER).handler(this::checkHead).failureHandler(this::refuseUnroutableHost);
        router.post("/webhook/:tenantId").order(INGEST_ORDER).handler(this::admit);
    }

    /** What the gate admitted for this request, or null when it did not pass the gate. */
    static Admitted admitted(RoutingContext routing) {
        return routing.get(ADMITTED);
    }

    private void checkHead(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        int lines = 0;
        int hosts = 0;
        boolean blankHost = false;
        for (Map.Entry<String, String> header : request.headers()) {
            lines++;
            if ("host".equalsIgnoreCase(header.getKey())) {
                hosts++;
                blankHost |= header.getValue().isBlank();
            }
        }
        if (lines > maxHeaderCount) {
            LOG.debugf("refused %s %s: %d header lines", request.method(), request.path(), lines);
            refuse(ctx, IngressResponses.tooManyHeaders(), System.nanoTime(), true);
        } else if (hosts > 1 || blankHost) {
            LOG.debugf("refused %s %s: %d Host lines%s", request.method(), request.path(), hosts,
                    blankHost ? ", an empty one" : "");
            refuse(ctx, IngressResponses.invalidHost(), System.nanoTime(), true);
        } else if (hasDotSegment(request.path())) {
            LOG.debugf("refused %s %s: a dot segment in the path", request.method(), request.path());
            refuse(ctx, IngressResponses.invalidPath(), System.nanoTime(), true);
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
     * Vert.x Web fails an HTTP/1.1 request without a Host, or with one it cannot parse, with a 400 before any route
     * runs; answered here, it is the documented JSON 400 at DEBUG instead of Quarkus's error page and an ERROR line.
     * So is a request line that says HTTP/2.0 (an h2 preface {@code PRI * HTTP/2.0} on this HTTP/1.1-only server):
     * Vert.x takes it for HTTP/2 and fails it for want of an {@code :authority}. HTTP/1.0 needs no Host.
     */
    private void refuseUnroutableHost(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (ctx.statusCode() == 400 && request.version() != HttpVersion.HTTP_1_0 && request.authority() == null) {
            LOG.debugf("refused %s %s: no usable Host", request.method(), request.path());
            refuse(ctx, IngressResponses.invalidHost(), System.nanoTime(), true);
        } else {
            ctx.next();
        }
    }

    private void admit(RoutingContext ctx) {
        long started = System.nanoTime();
        String tenantId = ctx.pathParam("tenantId");
        if (!Tenant.isValidId(tenantId)) {
            refuse(ctx, IngressResponses.notFound(), started, false);
            return;
        }
        long declared = declaredLength(ctx.request());
        if (declared > ceiling) {
            refuse(ctx, IngressResponses.tooLarge(), started, false); // no tenant may take it: no lookup
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
    static IngressAnswer lookupFailure(CompletableFuture<Tenant> lookup, long busyRetryAfter,
            long unavailableRetryAfter) {
        try {
            lookup.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return e instanceof LookupRefused || e.getCause() instanceof LookupRefused
                    ? IngressResponses.lookupBusy(busyRetryAfter)
                    : IngressResponses.unavailable(unavailableRetryAfter);
        }
    }

    private void admit(RoutingContext ctx, CompletableFuture<Tenant> lookup, long declared, long started) {
        IngressAnswer failed = lookupFailure(lookup, busyRetryAfter, unavailableRetryAfter);
        if (failed != null) {
            refuse(ctx, failed, started, false);
            return;
        }
        Tenant tenant = lookup.join();
        if (tenant == null) {
            refuse(ctx, IngressResponses.notFound(), started, false);
            return;
        }
        if (!tenant.active()) {
            refuse(ctx, tenant, IngressResponses.notFound(), started, declared);
            return;
        }
        if (ctx.response().closed()) {
            return; // the sender left while the tenant was looked up: nothing taken, nothing to answer
        }
        int limit = (int) Math.min(tenant.maxBodyBytes(defaultLimit), ceiling);
        if (declared > limit) {
            usage.of(tenant.id()).increment(UsageMetric.RECEIVED);
            refuse(ctx, tenant, IngressResponses.tooLarge(), started, declared);
        } else {
            BodyCheck check = declared >= checkFrom || declared < 0 ? bodyCheck(ctx.request(), tenant) : null;
            VerificationBudget.Permit permit = check == null || check.decided() ? null
                    : verificationBudget.permit(tenant.id());
            if (check != null && !check.decided() && permit == null) {
                // A flood of bad signatures to this tenant took its share of large-body checks: 503, nothing read.
                refuse(ctx, tenant, IngressResponses.verificationBusy(), started, declared);
                return;
            }
            new BodyRead(ctx, tenant, limit, declared, started, check == null ? null : new CheckedBody(check, permit))
                    .start();
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
     * {@link CheckedBody}, its bytes off the heap and their MAC on the pool once complete.
     */
    private final class BodyRead {

        private final RoutingContext ctx;
        private final Tenant tenant;
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

        BodyRead(RoutingContext ctx, Tenant tenant, int limit, long declaredLength, long started, CheckedBody checked) {
            this.ctx = ctx;
            this.tenant = tenant;
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
                refuse(IngressResponses.busy(busyRetryAfter)); // direct memory ran out after all: retry later
                return;
            }
            deadline = BodyReads.start(vertx, ctx, bodyTimeoutMillis, () -> refuse(IngressResponses.bodyTimeout()),
                    this::chunk, this::complete);
        }

        private void chunk(Buffer chunk) {
            if (over) {
                return;
            }
            int length = chunk.length();
            // A declared body cannot outgrow its Content-Length (Netty ends the request there): the cap is for the rest.
            if (length > cap - size) {
                usage.of(tenant.id()).increment(UsageMetric.RECEIVED);
                refuse(IngressResponses.tooLarge());
            } else if (!roomFor(size + length)) {
                refuse(IngressResponses.busy(busyRetryAfter));
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
            if (checked == null) {
                pass(new Admitted(tenant, heap.take(), rehearsal.is(tenant.id())));
            } else if (!checked.needsMac()) {
                pass(verdict(checked.verify()));
            } else {
                CompletionStage<CheckedBody.Verdict> verifying = checked.verifyOn(pool, tenant.id());
                if (verifying == null) {
                    // The pool is full: passed on unchecked, so that the ingest path answers its 503 exactly as
                    // for any large body (a heap copy, but no MAC).
                    pass(verdict(checked.unchecked()));
                    return;
                }
                if (!rehearsal.is(tenant.id())) {
                    listener.offloaded();
                }
                verifying.whenComplete((verdict, failure) -> {
                    if (!checked.verified()) {
                        return; // the sender left meanwhile
                    }
                    if (failure != null) {
                        IngressGate.this.refuse(ctx, tenant, IngressResponses.unavailable(unavailableRetryAfter),
                                started, size);
                        letGo();
                    } else {
                        pass(verdict(verdict));
                    }
                });
            }
        }

        private Admitted verdict(CheckedBody.Verdict verdict) {
            letGo(); // the bytes are on the heap now, or not needed; the slot is given back before the pool again
            return new Admitted(tenant, verdict.body(), rehearsal.is(tenant.id()), verdict.length(), verdict.checked());
        }

        private void pass(Admitted admitted) {
            if (direct != null) {
                direct.answer(ctx, admitted);
            } else {
                ctx.put(ADMITTED, admitted);
                ctx.next(); // to WebhookResource
            }
        }

        private void letGo() {
            if (checked != null) {
                checked.letGo();
            }
        }

        private void refuse(IngressAnswer answer) {
            if (!over) {
                over = true;
                vertx.cancelTimer(deadline);
                IngressGate.this.refuse(ctx, tenant, answer, started, expected >= 0 ? expected : size);
                letGo();
            }
        }
    }

    /** {@link #refuse(RoutingContext, IngressAnswer, long, boolean)} to a known tenant, kept in its refusals. */
    private void refuse(RoutingContext ctx, Tenant tenant, IngressAnswer answer, long started, long bodyBytes) {
        if (rehearsal.is(tenant.id())) { // the warm-up's: neither kept nor reported
            writer.write(ctx, answer, false);
            return;
        }
        refusals.record(tenant, answer, ctx.request().headers().names(), bodyBytes, ctx.request().remoteAddress());
        refuse(ctx, answer, started, false);
    }

    /** Reports an ingest answer ({@link IngressListener}; not the warm-up's) and writes it ({@link AnswerWriter}). */
    private void refuse(RoutingContext ctx, IngressAnswer answer, long started, boolean close) {
        if (!rehearsal.sentBy(ctx.request().getHeader(RehearsalTenant.HEADER))) {
            answer.reportTo(listener, started);
        }
        writer.write(ctx, answer, close);
    }
}
