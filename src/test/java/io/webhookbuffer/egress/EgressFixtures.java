package io.webhookbuffer.egress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.webhookbuffer.testsupport.FakeOrigin;

/**
 * What the origin trust tests need beside the fake origin: real names that resolve to real addresses (a hosts file
 * given to the Vert.x resolver, the one the buffer's clients resolve with), an origin listening at a refused address
 * (127.0.0.2: loopback, outside the test profile's 127.0.0.1/32), and two plain servers: a recorder, and a
 * redirector that answers every request with a 303 to the recorder (the control plane's URL here).
 */
public class EgressFixtures implements QuarkusTestResourceLifecycleManager {

    /** Resolves to 127.0.0.1 (allowed in tests): the fake origin under a name. */
    public static final String ALLOWED_NAME = "origin.allowed.test";
    /** Resolves to 127.0.0.2: matches buffer.origin.allowed-hosts, but its address is refused. */
    public static final String PRIVATE_NAME = "private.allowed.test";
    /** Resolves to the metadata address in its IPv4-mapped IPv6 form. */
    public static final String METADATA_NAME = "metadata.allowed.test";

    private FakeOrigin privateOrigin;
    private Recorder recorder;
    private Recorder redirector;

    /** A server that records every request (method and path) and answers with one status and headers. */
    public static final class Recorder implements AutoCloseable {
        private final HttpServer server;
        private final List<String> requests = new CopyOnWriteArrayList<>();
        private final int status;
        private final Map<String, String> headers;

        Recorder(int status, Map<String, String> headers) throws IOException {
            this.status = status;
            this.headers = headers;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
            server.createContext("/", this::handle);
            server.start();
        }

        public String baseUrl() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        public List<String> requests() {
            return List.copyOf(requests);
        }

        private void handle(HttpExchange exchange) throws IOException {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            exchange.getRequestBody().readAllBytes();
            headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Override
    public Map<String, String> start() {
        // Quarkus sets this (use-async-dns=false) when an application starts and never clears it; Vert.x reads it
        // when the next one starts. This profile asks for Vert.x's resolver, so the switch goes before the start.
        System.clearProperty("vertx.disableDnsResolver");
        try {
            privateOrigin = new FakeOrigin("127.0.0.2");
            recorder = new Recorder(200, Map.of());
            redirector = new Recorder(303, Map.of("Location", recorder.baseUrl() + "/elsewhere"));
            Path hosts = Path.of("target", "egress-test-hosts").toAbsolutePath();
            Files.createDirectories(hosts.getParent());
            Files.writeString(hosts, String.join("\n",
                    "127.0.0.1 localhost",
                    "::1 localhost",
                    "127.0.0.1 " + ALLOWED_NAME,
                    "127.0.0.2 " + PRIVATE_NAME,
                    "::ffff:169.254.169.254 " + METADATA_NAME, ""), StandardCharsets.US_ASCII);
            return Map.of("quarkus.vertx.resolver.hosts-path", hosts.toString(),
                    "buffer.control.url", redirector.baseUrl());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(this,
                new TestInjector.AnnotatedAndMatchesType(InjectEgressFixtures.class, EgressFixtures.class));
    }

    @Override
    public void stop() {
        privateOrigin.close();
        recorder.close();
        redirector.close();
    }

    /** An origin at 127.0.0.2, which the buffer must never connect to. */
    public FakeOrigin privateOrigin() {
        return privateOrigin;
    }

    public Recorder recorder() {
        return recorder;
    }

    public Recorder redirector() {
        return redirector;
    }
}
