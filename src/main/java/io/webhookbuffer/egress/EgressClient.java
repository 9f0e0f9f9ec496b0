package io.webhookbuffer.egress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.TimeoutException;

import org.jboss.logging.Logger;

import io.netty.resolver.DefaultAddressResolverGroup;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;

/**
 * One outbound HTTP exchange to a URL that configuration or a tenant chose, on the Vert.x HTTP client (not the
 * WebClient: it reads whole bodies and follows redirects), in four steps:
 * <ol>
 * <li>the host is resolved here, by the resolver the client itself would use (the JDK's by default, Vert.x's when
 * {@code quarkus.vertx.use-async-dns} is on), never on the event loop's time;</li>
 * <li>with an {@link OriginTrust}, that address is checked ({@link OriginTrust#addressRefusal}); a refused one fails
 * the exchange with {@link RefusedAddress} before any connection;</li>
 * <li>the request is sent to exactly that address ({@link RequestOptions#setServer}), while the host name stays the
 * request's host: the {@code Host} header, TLS's SNI and the certificate's name check use it, and pooled connections
 * are kept per (address, name). The client never resolves the name again, so DNS that changes between the check and
 * the connect (rebinding) cannot move the connection elsewhere;</li>
 * <li>redirects are never followed, and at most {@code maxAnswerBytes} of the answer's body are read: past them the
 * connection is closed and the answer is {@link EgressAnswer#cut}.</li>
 * </ol>
 * The whole exchange (connect, send, answer) must end within the timeout, or the request is reset.
 */
public final class EgressClient {

    private static final Logger LOG = Logger.getLogger(EgressClient.class);

    private final Vertx vertx;
    private final HttpClient client;
    private final OriginTrust trust;
    private final int maxAnswerBytes;

    /** With {@code trust} null, no address is refused (a URL only the operator sets, such as the control plane's). */
    public EgressClient(Vertx vertx, HttpClientOptions options, OriginTrust trust, int maxAnswerBytes) {
        this.vertx = vertx;
        // A connection's exception (an origin's reset, an idle connection it cut) goes to the exchange in flight, if
        // any, which fails; with no handler of its own, Vert.x would also log an ERROR per exception: a page per reset.
        // The pool size set on the options (setMaxPoolSize) lives in their PoolOptions, which the builder ignores
        // unless given them too: without this every origin got Vert.x's default 5 connections, whatever the caller set.
        this.client = vertx.httpClientBuilder().with(options).with(options.getPoolOptions())
                .withConnectHandler(connection -> connection
                .exceptionHandler(e -> LOG.debugf("connection to %s: %s", connection.remoteAddress(), e.toString())))
                .build();
        this.trust = trust;
        this.maxAnswerBytes = maxAnswerBytes;
    }

    /** Fails with {@link RefusedAddress}, a resolution or connection failure, a reset or the timeout. */
    public Future<EgressAnswer> send(HttpMethod method, String url, MultiMap headers, Buffer body, long timeoutMillis) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Future.failedFuture(new IllegalArgumentException("not a URL: " + e.getMessage()));
        }
        if (uri.getHost() == null) {
            return Future.failedFuture(new IllegalArgumentException("no host in the URL"));
        }
        String host = HostPatterns.canonical(uri.getHost());
        boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() >= 0 ? uri.getPort() : ssl ? 443 : 80;
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return resolve(host).compose(address -> {
            String refused = trust == null ? null : trust.addressRefusal(address);
            if (refused != null) {
                return Future.failedFuture(new RefusedAddress(host + " resolves to " + address.getHostAddress() + " ("
                        + refused + "), outside buffer.origin.allowed-private-networks: not connected"));
            }
            RequestOptions options = new RequestOptions().setMethod(method).setURI(path).setSsl(ssl)
                    // The host as the URL spells it (an IPv6 literal keeps its brackets): the Host header, TLS's
                    // SNI and certificate name; the connection goes to the address checked above, and nowhere else.
                    .setHost(uri.getHost()).setPort(port)
                    .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(address, port)))
                    .setFollowRedirects(false).setTimeout(timeoutMillis).setHeaders(headers)
                    .putHeader("User-Agent", "webhook-buffer");
            return client.request(options).compose(request -> exchange(request, body, timeoutMillis));
        });
    }

    /**
     * The address the client would connect to. An IP literal is taken as is. A name goes to the resolver the Vert.x
     * client uses: with Quarkus's default ({@code quarkus.vertx.use-async-dns=false}) the JDK's, asked on a worker
     * thread (its lookup blocks; the JDK caches answers); with the asynchronous one, Vert.x's own, through its
     * internal interface (the public DNS client reads no hosts file and no search domains).
     */
    private Future<InetAddress> resolve(String host) {
        InetAddress literal = Cidr.literal(host);
        if (literal != null) {
            return Future.succeededFuture(literal);
        }
        VertxInternal internal = (VertxInternal) vertx;
        if (internal.nettyAddressResolverGroup() instanceof DefaultAddressResolverGroup) {
            return vertx.executeBlocking(() -> InetAddress.getByName(host), false);
        }
        Promise<InetAddress> resolved = Promise.promise();
        internal.resolveAddress(host, resolved);
        return resolved.future();
    }

    private Future<EgressAnswer> exchange(HttpClientRequest request, Buffer body, long timeoutMillis) {
        long deadline = vertx.setTimer(timeoutMillis, id -> request.reset(0,
                new TimeoutException("no complete answer within " + timeoutMillis + " ms")));
        Future<HttpClientResponse> sent = body == null ? request.send() : request.send(body);
        return sent.compose(this::read).onComplete(done -> vertx.cancelTimer(deadline));
    }

    /** At most maxAnswerBytes of the body; one byte more and the connection is closed, the rest never read. */
    private Future<EgressAnswer> read(HttpClientResponse response) {
        Promise<EgressAnswer> answer = Promise.promise();
        Buffer kept = Buffer.buffer();
        response.handler(chunk -> {
            if (answer.future().isComplete()) {
                return; // cut: what was already in flight is dropped
            }
            int room = maxAnswerBytes - kept.length();
            if (chunk.length() <= room) {
                kept.appendBuffer(chunk);
                return;
            }
            kept.appendBuffer(chunk, 0, room);
            answer.tryComplete(new EgressAnswer(response.statusCode(), response.headers(), kept, true));
            response.request().reset(); // HTTP/1.x: closes the connection
        });
        response.exceptionHandler(answer::tryFail);
        response.endHandler(v -> answer.tryComplete(
                new EgressAnswer(response.statusCode(), response.headers(), kept, false)));
        return answer.future();
    }
}
