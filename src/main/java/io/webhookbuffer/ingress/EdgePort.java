package io.webhookbuffer.ingress;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.netty.util.concurrent.EventExecutor;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.webhookbuffer.actor.IngestResult;

/**
 * The webhook port ({@code buffer.ingress.port}, 8080), the one the internet reaches: a Vert.x HTTP server of our own
 * (an instance on each event loop, sharing the port) that hands every request to Quarkus's root handler
 * ({@link QuarkusHttpInternals#rootHandler()}, as the management port does), so the routes, filters, graceful
 * shutdown and request ids are Quarkus's own; what it adds is what Quarkus's server cannot do, on the connection before
 * any request exists:
 * <ul>
 * <li><b>A head deadline</b> ({@code buffer.ingress.head-timeout}, 10 s): a connection must deliver its first complete
 * request head within it of being accepted, or it is closed without an answer (there is no request to answer yet) and
 * counted, {@code buffer_ingress_refusals_total{reason="head_timeout"}}. Without it a head could take the idle
 * timeout (75 s, which Vert.x measures between decoded messages, so a head dribbled a byte a second does not reset
 * it): a thousand such connections, a new one every 75 ms, held every connection of the replica. A kept-alive
 * connection has the idle timeout for its next head (measured: a next head dribbled a byte every 100 ms was closed at
 * the idle timeout of the answer before it).</li>
 * <li><b>A connection cap that answers</b> ({@code buffer.ingress.max-connections}): the connections past it, up to a
 * tenth more, get {@code 503 too_many_connections} with {@code Retry-After} as soon as their head is in, and are
 * closed; only past that overflow is a connection closed as it is accepted.</li>
 * <li><b>The Host lines as sent</b>: whether the head had exactly one non-blank {@code Host} line (none is fine for
 * HTTP/1.0), read before Quarkus's root handler, whose forwarded-header parsing ({@code quarkus.http.proxy.*}, on in
 * {@code k8s/}) rewrites the {@code Host} header to one line before any route runs. The gate
 * ({@link IngressGate}) refuses such a head {@code 400 invalid_host}, with a request id as every answer has;
 * without this a doubled Host behind a trusted proxy was served as the first one (RFC 9112 §3.2 asks for a 400).</li>
 * </ul>
 *
 * <p>Quarkus's own HTTP server still runs, on loopback only ({@code quarkus.http.host=127.0.0.1}, a free port): the
 * tests' HTTP client and callers inside the pod may use it; nothing outside the pod can reach it.
 *
 * <p>Failure policy: fail closed. A port that cannot be bound stops start-up; a connection past its deadline or the
 * overflow is closed, never served unbounded. Everything here runs on the connection's event loop: a connection's
 * state is only touched there, and nothing blocks.
 */
@ApplicationScoped
public class EdgePort {

    private static final Logger LOG = Logger.getLogger(EdgePort.class);
    private static final long BIND_TIMEOUT_SECONDS = 30;
    /** Connections past the cap that are still answered (503), as a fraction of it; at least this many. */
    private static final int OVERFLOW_DIVISOR = 10;
    private static final int MIN_OVERFLOW = 16;
    /** The port asked for when {@code buffer.ingress.port} is 0: Vert.x's key for one shared random port. */
    private static final int SHARED_RANDOM_PORT = -8080;

    private final Vertx vertx;
    private final IngressListener listener;
    private final HttpServerOptions options;
    private final String host;
    private final int configuredPort;
    private final long headTimeoutMillis;
    private final int maxConnections;
    private final int hardLimit;
    private final String retryAfter;
    private final Buffer tooManyConnections;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<HttpConnection, Tracked> tracked = new ConcurrentHashMap<>();
    /** Connections whose request now in hand had no single usable Host line as sent; an answer closes them. */
    private final Set<HttpConnection> unusableHost = ConcurrentHashMap.newKeySet();
    /** The port the instances listen on (they share one socket), -1 before the first listens. */
    private volatile int actualPort = -1;
    private volatile String deployment;

    public EdgePort(Vertx vertx, IngressListener listener, IngressConfig config, ObjectMapper json,
            ServerLimits limits) throws JsonProcessingException {
        this.vertx = vertx;
        this.listener = listener;
        this.host = config.host();
        this.configuredPort = config.port();
        this.headTimeoutMillis = config.headTimeout().toMillis();
        this.maxConnections = config.maxConnections();
        this.hardLimit = maxConnections + Math.max(MIN_OVERFLOW, maxConnections / OVERFLOW_DIVISOR);
        this.retryAfter = Integer.toString(IngestResult.BUSY_RETRY_AFTER_SECONDS);
        this.tooManyConnections = Buffer.buffer(json.writeValueAsBytes(
                new IngressReply("unavailable", null, EdgeRefusal.TOO_MANY_CONNECTIONS.label())));
        this.options = limits.options(host);
    }

    /** The port the webhook server listens on, or -1 before it does. */
    public int port() {
        return actualPort;
    }

    /** The interface the webhook port listens on ({@code buffer.ingress.host}). */
    public String host() {
        return host;
    }

    /** Connections open on the webhook port now. */
    public int openConnections() {
        return open.get();
    }

    void start(@Observes StartupEvent event) throws Exception {
        if (headTimeoutMillis < 1 || maxConnections < 1 || configuredPort < 0 || configuredPort > 65_535) {
            throw new IllegalStateException("buffer.ingress.head-timeout must be positive, buffer.ingress.max-connections"
                    + " at least 1 and buffer.ingress.port 0 to 65535");
        }
        // One instance per event loop, sharing one listening socket. Port 0 (a free one) is asked for as a negative
        // port: Vert.x shares one random port among the servers that ask for the same negative number (and binds a
        // new one for each 0). Quarkus asks for -1 and -3 for its own servers; ours must not join theirs.
        int loops = eventLoops(vertx);
        int port = configuredPort == 0 ? SHARED_RANDOM_PORT : configuredPort;
        deployment = vertx.deployVerticle(() -> new Instance(port), new DeploymentOptions().setInstances(loops))
                .toCompletionStage().toCompletableFuture().get(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        LOG.infof("webhook port %s:%d on %d event loops (head deadline %d ms, %d connections)", host, port(), loops,
                headTimeoutMillis, maxConnections);
    }

    /** Vert.x's event loops, each of which gets an instance of the server (Quarkus's own server does the same). */
    static int eventLoops(Vertx vertx) {
        int loops = 0;
        for (EventExecutor ignored : vertx.nettyEventLoopGroup()) {
            loops++;
        }
        return Math.max(1, loops);
    }

    /**
     * Undeploys the instances, which closes their servers, and waits for it (bounded): in dev mode Vert.x outlives
     * a reload, and the next start must not join a server that is still closing.
     */
    void stop(@Observes ShutdownEvent event) {
        String id = deployment;
        if (id == null) {
            return;
        }
        try {
            vertx.undeploy(id).toCompletionStage().toCompletableFuture().get(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("webhook port: closing its servers did not finish: %s", e.toString());
        }
    }

    /**
     * One event loop's server. A server created outside a verticle runs every connection on one event loop: the
     * webhook port did so from ab799c9 on, and in the abuse suite that loop took 160 of every 180 samples while the
     * others idled, with the legitimate sender's requests queued behind the hostile ones. Instances that listen on
     * one port share its socket, and Vert.x hands each new connection to the next of them in turn.
     */
    private final class Instance extends AbstractVerticle {
        private final int port;

        Instance(int port) {
            this.port = port;
        }

        @Override
        public void start(Promise<Void> started) {
            HttpServer s = vertx.createHttpServer(options);
            s.connectionHandler(EdgePort.this::connected);
            s.requestHandler(EdgePort.this::request);
            // No WebSockets here: the handshake is refused 404 as any unknown path. Having a handler at all also
            // makes Vert.x hand a request with an unknown HTTP version (HTTP/9.9, HTTP/2.0 text, an h2 preface) to
            // the router, as Quarkus's server does, rather than answer 501 itself: the ingest gate answers those the
            // documented JSON.
            s.webSocketHandshakeHandler(handshake -> handshake.reject(404));
            s.webSocketHandler(webSocket -> webSocket.close());
            s.listen(port).onSuccess(bound -> actualPort = bound.actualPort()).<Void>mapEmpty().onComplete(started);
        }
    }

    private void connected(HttpConnection connection) {
        int now = open.incrementAndGet();
        if (now > hardLimit) {
            open.decrementAndGet();
            LOG.debugf("closed a connection from %s as it was accepted: %d open", connection.remoteAddress(), now - 1);
            connection.close();
            return;
        }
        Tracked t = new Tracked(connection, now > maxConnections);
        tracked.put(connection, t);
        connection.closeHandler(v -> {
            open.decrementAndGet();
            tracked.remove(connection);
            unusableHost.remove(connection);
            t.cancel();
        });
        t.timer = vertx.setTimer(headTimeoutMillis, id -> t.expired());
    }

    private void request(HttpServerRequest request) {
        Tracked t = tracked.get(request.connection());
        if (t != null) {
            t.headIn();
            if (t.overflow) {
                refuse(request);
                return;
            }
        }
        if (!oneUsableHost(request)) {
            unusableHost.add(request.connection());
        }
        QuarkusHttpInternals.rootHandler().handle(request);
    }

    /**
     * The head's Host as it arrived, before anything rewrote it: exactly one line, not blank, and for any version but
     * HTTP/1.0 (which needs none) one Vert.x can parse as {@code host[:port]}; an HTTP/2 request line has none.
     */
    static boolean oneUsableHost(HttpServerRequest request) {
        List<String> hosts = request.headers().getAll(HttpHeaders.HOST);
        if (hosts.size() > 1 || hosts.size() == 1 && hosts.get(0).isBlank()) {
            return false;
        }
        return request.version() == HttpVersion.HTTP_1_0 || request.authority() != null;
    }

    /**
     * Whether {@code request} has a usable Host ({@link #oneUsableHost}): on the webhook port as the head was sent
     * (noted before Quarkus's root handler, read once), on another server as it reads now.
     */
    boolean usableHost(HttpServerRequest request) {
        if (request.localAddress() == null || request.localAddress().port() != actualPort) {
            return oneUsableHost(request);
        }
        return unusableHost.isEmpty() || !unusableHost.remove(request.connection());
    }

    /** A connection past the cap: 503 and closed, the body never read. */
    private void refuse(HttpServerRequest request) {
        listener.refused(EdgeRefusal.TOO_MANY_CONNECTIONS);
        HttpConnection connection = request.connection();
        request.response().setStatusCode(503).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Retry-After", retryAfter).putHeader(HttpHeaders.CONNECTION, "close")
                .end(tooManyConnections).onComplete(done -> connection.close());
    }

    /** One connection until its first request head is in: touched on its event loop only. */
    private final class Tracked {
        private final HttpConnection connection;
        private final boolean overflow;
        private long timer = -1;

        Tracked(HttpConnection connection, boolean overflow) {
            this.connection = connection;
            this.overflow = overflow;
        }

        void headIn() {
            cancel();
            tracked.remove(connection);
        }

        void expired() {
            timer = -1;
            LOG.debugf("closed a connection from %s: no request head within %d ms", connection.remoteAddress(),
                    headTimeoutMillis);
            listener.refused(EdgeRefusal.HEAD_TIMEOUT);
            connection.close();
        }

        void cancel() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
        }
    }
}
