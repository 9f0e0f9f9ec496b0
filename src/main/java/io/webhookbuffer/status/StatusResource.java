package io.webhookbuffer.status;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.delivery.Drainer;
import io.webhookbuffer.health.RedisProbe;
import io.webhookbuffer.ratelimit.shared.SharedWindows;
import io.webhookbuffer.ingress.RefusalLog;
import io.webhookbuffer.queue.QueueSnapshot;
import io.webhookbuffer.queue.QueueSnapshots;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.verify.SenderRetries;

/**
 * {@code GET /status}: the human view of the buffer, server-rendered (Qute), no JavaScript, reloading itself every
 * {@link #REFRESH_SECONDS} seconds. Read-only; it shows the last backlog snapshot, so a page view costs no query.
 *
 * <p>Access: {@code buffer.status.token} unset → 404 (the page does not exist). Otherwise
 * {@code Authorization: Bearer <token>}, or a session: a browser without one is shown a sign-in form (401), which
 * POSTs the token in the body to {@code /status/sign-in}; that answers 303 to {@code /status} with an HttpOnly,
 * SameSite=Strict (and, outside local mode, Secure) cookie holding a signed expiry ({@link StatusSession}: never the
 * token), refused once expired or altered. A sign-in another site's page sends is refused ({@link SignInOrigin}: 403).
 * The token in the address ({@code ?token=}, the old way, which ends up in proxy and browser logs) is refused with 400
 * and a pointer to the form, even when right. Anything else → 401.
 */
@Path("/status")
public class StatusResource {

    static final String COOKIE = "buffer_status";
    /** How often the page reloads itself: a few backlog snapshots apart, and often enough for a wall screen. */
    static final int REFRESH_SECONDS = 10;
    static final String SIGN_IN = "/status/sign-in";
    private static final String TOKEN_IN_ADDRESS = "The status token is not accepted in the address (?token=): "
            + "addresses end up in proxy and browser logs. Sign in with the form at /status (it POSTs the token to "
            + SIGN_IN + " in the body), or send Authorization: Bearer <buffer.status.token>.";
    private static final String UNAUTHORIZED = "Unauthorized: send Authorization: Bearer <buffer.status.token>, or "
            + "POST token=<buffer.status.token> (a form) to " + SIGN_IN + " for a session cookie";

    private final Template page;
    private final Template signInPage;
    private final StatusConfig config;
    private final QueueSnapshots snapshots;
    private final Drainer drainer;
    private final RedisProbe redis;
    private final SharedWindows leases;
    private final byte[] token;
    private final StatusSession session;
    private final RefusalLog refusals;
    private final TenantDirectory tenants;
    private final BufferClock clock;

    public StatusResource(@Location("status.html") Template page, @Location("status-sign-in.html") Template signInPage,
            StatusConfig config, QueueSnapshots snapshots, Drainer drainer, RedisProbe redis, RefusalLog refusals,
            SharedWindows leases, TenantDirectory tenants, BufferClock clock) {
        this.clock = clock;
        this.refusals = refusals;
        this.tenants = tenants;
        this.page = page;
        this.signInPage = signInPage;
        this.config = config;
        this.snapshots = snapshots;
        this.drainer = drainer;
        this.redis = redis;
        this.leases = leases;
        Optional<String> t = config.token().filter(s -> !s.isBlank());
        this.token = t.map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
        this.session = t.map(s -> new StatusSession(s, StatusSession.TTL)).orElse(null);
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public Response status(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(HttpHeaders.ACCEPT) String accept, @CookieParam(COOKIE) String cookie,
            @QueryParam("token") String queryToken) {
        if (token == null) {
            return notFound();
        }
        if (queryToken != null) {
            return tokenInAddress();
        }
        boolean bearer = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && matches(authorization.substring(7).strip());
        if (!bearer && !session.valid(cookie, now())) {
            return accept != null && accept.contains(MediaType.TEXT_HTML) ? form(401, null) : unauthorized();
        }
        return secured(Response.ok(render(now()), MediaType.TEXT_HTML_TYPE)).build();
    }

    /** The form's POST: the token in the body; a session cookie and 303 to the page, or the form again (401). */
    @POST
    @Path("sign-in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public Response signIn(@FormParam("token") String given, @QueryParam("token") String queryToken,
            @HeaderParam("Sec-Fetch-Site") String fetchSite, @HeaderParam("Origin") String origin,
            @HeaderParam(HttpHeaders.HOST) String host) {
        if (token == null) {
            return notFound();
        }
        if (queryToken != null) {
            return tokenInAddress();
        }
        if (!SignInOrigin.sameOrigin(fetchSite, origin, host)) {
            return secured(Response.status(Response.Status.FORBIDDEN).type(MediaType.TEXT_PLAIN)
                    .entity("Forbidden: a sign-in must come from the form at /status, not from another site")).build();
        }
        if (given == null || !matches(given)) {
            return form(401, "That is not the status token.");
        }
        return secured(Response.status(Response.Status.SEE_OTHER)).header(HttpHeaders.LOCATION, "/status")
                .cookie(sessionCookie(session.issue(now()), StatusSession.TTL.toSeconds(),
                        config.secureCookie()))
                .build();
    }

    /** The session cookie: for /status only, out of scripts' reach, never sent cross-site, HTTPS-only if secure. */
    static NewCookie sessionCookie(String value, long maxAgeSeconds, boolean secure) {
        return new NewCookie.Builder(COOKIE).value(value).path("/status").httpOnly(true).secure(secure)
                .sameSite(NewCookie.SameSite.STRICT).maxAge((int) Math.min(Integer.MAX_VALUE, maxAgeSeconds)).build();
    }

    String render(Instant now) {
        QueueSnapshot s = snapshots.last();
        List<StatusBoard.Row> rows = StatusBoard.rows(s, drainer::view, this::sender, now);
        long attention = rows.stream().filter(r -> r.state() != StatusBoard.State.OK).count();
        return page.data("refreshSeconds", REFRESH_SECONDS)
                .data("snapshot", s)
                .data("oldestAge", s.events() == 0 ? "—" : StatusBoard.age(s.oldestAgeSeconds()))
                .data("takenAt", StatusBoard.time(s.takenAt()))
                .data("now", StatusBoard.time(now))
                .data("rows", rows)
                .data("attention", attention)
                .data("redis", redis.state())
                .data("rateWindows", rateWindows(leases))
                .data("openCircuits", drainer.openCircuits())
                .data("refusals", refusals.latest(StatusBoard.REFUSALS_SHOWN))
                .render();
    }

    /** What the tenant's sender does after a refusal, if this replica holds the tenant: no query for a page view. */
    private SenderRetries sender(String tenantId) {
        Tenant tenant = tenants.cached(tenantId);
        return tenant == null ? null : tenant.retries();
    }

    /** How tenants' rate windows run on this replica: shared through Redis, on the local share, or per replica. */
    static String rateWindows(SharedWindows leases) {
        if (!leases.config().shared()) {
            return "per replica";
        }
        int n = leases.replicas();
        return leases.fallback() ? "local share (leases failing)"
                : "shared by " + n + (n == 1 ? " replica" : " replicas");
    }

    private boolean matches(String given) {
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token);
    }

    private Response form(int status, String message) {
        String html = signInPage.data("message", message).render();
        return secured(Response.status(status).type(MediaType.TEXT_HTML_TYPE).entity(html)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"status\"")).build();
    }

    private static Response notFound() {
        return Response.status(Response.Status.NOT_FOUND).type(MediaType.TEXT_PLAIN).entity("Not Found").build();
    }

    private static Response tokenInAddress() {
        return secured(Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN).entity(TOKEN_IN_ADDRESS))
                .build();
    }

    private static Response unauthorized() {
        return secured(Response.status(Response.Status.UNAUTHORIZED).type(MediaType.TEXT_PLAIN)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"status\"").entity(UNAUTHORIZED)).build();
    }

    private static Response.ResponseBuilder secured(Response.ResponseBuilder builder) {
        return builder.header("Cache-Control", "no-store")
                .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
                        + "frame-ancestors 'none'; base-uri 'none'")
                .header("X-Frame-Options", "DENY").header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff");
    }

    private Instant now() {
        return Instant.ofEpochMilli(clock.millis());
    }
}
