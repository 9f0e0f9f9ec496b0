package io.webhookbuffer.tenant;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * A real origin whose {@code GET /internal/tenants/{id}/webhook-config} is slow: it answers after
 * {@link #DELAY_MILLIS}, with a config for ids starting {@code pulled-}, 404 for the rest, counts requests in flight
 * and keeps the ids it was asked about.
 */
public class SlowTenantOrigin implements QuarkusTestResourceLifecycleManager {

    /** Longer than a question's wait for its turn (TenantDirectory.ORIGIN_WAIT, 1 s) by a margin a loaded machine keeps. */
    static final long DELAY_MILLIS = 2500;
    static final TenantFlood.Peak PEAK = new TenantFlood.Peak();
    static final AtomicInteger ASKED = new AtomicInteger();
    /** Every tenant id the origin was asked about. */
    static final Set<String> IDS = ConcurrentHashMap.newKeySet();
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.createContext("/internal/tenants/", exchange -> {
            PEAK.enter();
            ASKED.incrementAndGet();
            try {
                String id = exchange.getRequestURI().getPath().split("/")[3];
                IDS.add(id);
                Thread.sleep(DELAY_MILLIS);
                byte[] body = ("{\"active\":true,\"rateLimit\":1000,\"secrets\":[\"" + TestTenants.DEFAULT_SECRET + "\"]}")
                        .getBytes(StandardCharsets.UTF_8);
                boolean known = id.startsWith("pulled-");
                exchange.sendResponseHeaders(known ? 200 : 404, known ? body.length : -1);
                if (known) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                PEAK.leave();
                exchange.close();
            }
        });
        server.start();
        return Map.of("buffer.origin.base-url", "http://127.0.0.1:" + server.getAddress().getPort(),
                "buffer.tenants.origin-pull.enabled", "true",
                "buffer.tenants.origin-pull.max-concurrent", "2",
                "buffer.tenants.origin-pull.timeout", "3s");
    }

    @Override
    public void stop() {
        server.stop(0);
    }
}
