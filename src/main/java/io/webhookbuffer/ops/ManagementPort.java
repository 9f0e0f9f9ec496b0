package io.webhookbuffer.ops;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.controlplane.ControlBodyGate;
import io.webhookbuffer.ingress.QuarkusHttpInternals;
import io.webhookbuffer.ingress.ServerLimits;

/**
 * The management port ({@code buffer.management.port}): with it set, {@code /q/*} (health, metrics, OpenAPI),
 * {@code /control/...} and {@code /status} are answered there and only there, and the webhook port, the one the
 * internet reaches, answers 404 for them; the management port answers 404 for everything else ({@code /webhook}).
 *
 * <p>How: a second Vert.x HTTP server on that port hands every request to Quarkus's own root handler, the one the main
 * server uses ({@link QuarkusHttpInternals#rootHandler()}: URI check, duplicated context, graceful-shutdown tracking,
 * then the application router), so a command or a page is served by the same RESTEasy resources, filters and request
 * ids on either port. A route ahead of every other one on that router lets a request through only when its path and
 * the server it arrived on agree. Why not Quarkus's management interface ({@code quarkus.management.enabled}): its
 * router serves Vert.x routes only, and reads every body before any route runs, so a RESTEasy resource handed the
 * request there would see an ended request with an empty body (a signed {@code PUT} would lose its body); and it is
 * fixed at build time, where this is a runtime setting (off in local mode and the tests, on in k8s/ and compose).
 *
 * <p>Failure policy: fail closed. The split is decided per request by the connection it came on (the management
 * server's connections are the only ones registered here), never by a header or an address a client could choose; a
 * port that cannot be bound stops start-up.
 */
@ApplicationScoped
public class ManagementPort {

    private static final Logger LOG = Logger.getLogger(ManagementPort.class);
    /** Ahead of every other route: the shutdown gate, request ids, the ingest gate. */
    static final int ORDER = QuarkusHttpInternals.PORT_ORDER;
    /** First path segments answered on the management port only. */
    private static final Set<String> MANAGEMENT_SEGMENTS = Set.of("q", "control", "status");
    private static final long BIND_TIMEOUT_SECONDS = 30;

    private final Vertx vertx;
    private final ManagementConfig config;
    private final HttpServerOptions options;
    private final int httpPort;
    private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
    private volatile HttpServer server;

    public ManagementPort(Vertx vertx, ManagementConfig config,
            @ConfigProperty(name = "buffer.ingress.port") int httpPort, ServerLimits limits) {
        this.vertx = vertx;
        this.config = config;
        this.httpPort = httpPort;
        this.options = limits.options(config.host());
    }

    /** Whether the management paths have a port of their own. */
    public boolean enabled() {
        return config.port().isPresent();
    }

    /** The port the management server listens on, or -1 when there is none (yet). */
    public int port() {
        HttpServer s = server;
        return s == null ? -1 : s.actualPort();
    }

    /** Whether {@code path} (normalized) is one the management port answers: {@code /q}, {@code /control}, {@code /status}. */
    static boolean isManagementPath(String path) {
        return path != null && MANAGEMENT_SEGMENTS.contains(ControlBodyGate.firstSegment(path));
    }

    static ConfigCheck problems(ManagementConfig config, int httpPort) {
        ConfigCheck check = new ConfigCheck();
        config.port().ifPresent(p -> check.range("buffer.management.port", p, 0, 65_535)
                // Two servers of one Vert.x on one port share it, each taking every other connection (0: a free one).
                .require(p == 0 || p != httpPort, "buffer.management.port must differ from buffer.ingress.port, was " + p));
        return check.require(!config.host().isBlank(), "buffer.management.host must not be blank");
    }

    void routes(@Observes Router router) {
        if (enabled()) {
            router.route().order(ORDER).handler(this::separate);
        }
    }

    void start(@Observes StartupEvent event) throws Exception {
        problems(config, httpPort).throwIfAny();
        if (!enabled()) {
            return;
        }
        HttpServer s = vertx.createHttpServer(options);
        s.connectionHandler(connection -> {
            connections.add(connection);
            connection.closeHandler(v -> connections.remove(connection));
        });
        s.requestHandler(QuarkusHttpInternals.rootHandler());
        server = s.listen(config.port().get()).toCompletionStage().toCompletableFuture()
                .get(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        LOG.infof("management port %s:%d: /q/*, /control and /status are answered there only", config.host(),
                server.actualPort());
    }

    void stop(@Observes ShutdownEvent event) {
        HttpServer s = server;
        if (s != null) {
            s.close();
        }
    }

    /** Lets a request on when its path and its port agree; else 404, as for a path that does not exist. */
    private void separate(RoutingContext ctx) {
        boolean managementPath = isManagementPath(ctx.normalizedPath());
        boolean onManagementPort = connections.contains(ctx.request().connection());
        if (managementPath == onManagementPort) {
            ctx.next();
        } else {
            ctx.response().setStatusCode(404).end();
        }
    }
}
