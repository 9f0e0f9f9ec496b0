package io.webhookbuffer.ops;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.delivery.Drainer;
import io.webhookbuffer.health.RedisProbe;
import io.webhookbuffer.queue.QueueSnapshot;
import io.webhookbuffer.queue.QueueSnapshots;

/**
 * {@code GET /status}: the human view of the buffer, server-rendered (Qute), no JavaScript, reloading itself every
 * {@code buffer.status.refresh}. Read-only; it shows the last backlog snapshot, so a page view costs no query.
 *
 * <p>Access: {@code buffer.status.token} unset → 404 (the page does not exist). Otherwise
 * {@code Authorization: Bearer <token>}, or, for a browser (which cannot send that header on a page load), one visit
 * to {@code /status?token=<token>}: the answer sets an HttpOnly, SameSite=Strict cookie holding an HMAC of the token
 * (never the token) and redirects to {@code /status}. Anything else → 401.
 */
@Path("/status")
public class StatusResource {

    static final String COOKIE = "buffer_status";

    private final Template page;
    private final StatusConfig config;
    private final QueueSnapshots snapshots;
    private final Drainer drainer;
    private final RedisProbe redis;
    private final byte[] token;
    private final String session;

    public StatusResource(@Location("status.html") Template page, StatusConfig config, QueueSnapshots snapshots,
            Drainer drainer, RedisProbe redis) {
        this.page = page;
        this.config = config;
        this.snapshots = snapshots;
        this.drainer = drainer;
        this.redis = redis;
        Optional<String> t = config.token().filter(s -> !s.isBlank());
        this.token = t.map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
        byte[] purpose = "buffer-status-session".getBytes(StandardCharsets.UTF_8);
        this.session = t.map(s -> HexFormat.of().formatHex(Hmac.hmacSha256(s, purpose))).orElse(null);
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public Response status(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @CookieParam(COOKIE) String cookie, @QueryParam("token") String queryToken) {
        if (token == null) {
            return Response.status(Response.Status.NOT_FOUND).type(MediaType.TEXT_PLAIN).entity("Not Found").build();
        }
        if (queryToken != null) {
            if (!matches(queryToken.getBytes(StandardCharsets.UTF_8), token)) {
                return unauthorized();
            }
            NewCookie sessionCookie = new NewCookie.Builder(COOKIE).value(session).path("/status").httpOnly(true)
                    .sameSite(NewCookie.SameSite.STRICT).maxAge((int) config.sessionTtl().toSeconds()).build();
            return Response.seeOther(URI.create("/status")).cookie(sessionCookie).header("Cache-Control", "no-store")
                    .header("Referrer-Policy", "no-referrer").build();
        }
        boolean bearer = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && matches(authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8), token);
        boolean sessionOk = cookie != null && matches(cookie.getBytes(StandardCharsets.UTF_8),
                session.getBytes(StandardCharsets.UTF_8));
        if (!bearer && !sessionOk) {
            return unauthorized();
        }
        return secured(Response.ok(render(Instant.now()), MediaType.TEXT_HTML_TYPE)).build();
    }

    String render(Instant now) {
        QueueSnapshot s = snapshots.last();
        List<StatusBoard.Row> rows = StatusBoard.rows(s, drainer::view, now);
        long attention = rows.stream().filter(r -> r.state() != StatusBoard.State.OK).count();
        return page.data("refreshSeconds", Math.max(1, config.refresh().toSeconds()))
                .data("snapshot", s)
                .data("oldestAge", s.events() == 0 ? "—" : StatusBoard.age(s.oldestAgeSeconds()))
                .data("takenAt", StatusBoard.time(s.takenAt()))
                .data("now", StatusBoard.time(now))
                .data("rows", rows)
                .data("attention", attention)
                .data("redis", redis.state())
                .data("openCircuits", drainer.openCircuits())
                .render();
    }

    private static boolean matches(byte[] given, byte[] expected) {
        return MessageDigest.isEqual(given, expected);
    }

    private static Response unauthorized() {
        return secured(Response.status(Response.Status.UNAUTHORIZED).type(MediaType.TEXT_PLAIN)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"status\"")
                .entity("Unauthorized: send Authorization: Bearer <buffer.status.token>, or open /status?token=<token> once"))
                .build();
    }

    private static Response.ResponseBuilder secured(Response.ResponseBuilder builder) {
        return builder.header("Cache-Control", "no-store")
                .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
                .header("X-Frame-Options", "DENY").header("Referrer-Policy", "no-referrer")
                .header("X-Content-Type-Options", "nosniff");
    }
}
