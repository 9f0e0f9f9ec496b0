package io.webhookbuffer.warmup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.webhookbuffer.ingress.IngressConfig;
import io.webhookbuffer.tenant.RehearsalTenant;

/**
 * The warm-up's second part: the refusals, before readiness. A replica that has only ever answered good webhooks has
 * never run the code that refuses bad ones; the first hostile burst then runs it interpreted, loads its classes and
 * has it compiled, all at once and on the event loops that also serve the genuine senders (measured in the abuse
 * suite: the compiler took 42-60% of a core for the first 15 s of abuse, and the sender's slowest answers were in
 * them; docs/abuse.md). So the replica sends itself, over raw connections to the webhook port, one new connection
 * each, {@code buffer.warmup.refusals} requests from a catalogue of what the edge refuses: unknown tenants (ids drawn
 * from the rehearsal tenant's, which nobody can provision, so each costs the real lookup and its query), bad, missing
 * and malformed signatures, bodies over the limit declared and chunked, large forged bodies checked off the heap,
 * broken HTTP, framing lies and heads or bodies cut short.
 *
 * <p>What it leaves: no metric of the buffer's own (every request carries the rehearsal's secret header, and the
 * gate reports no refusal that has it, {@link RehearsalTenant#sentBy}, nor one to the rehearsal tenant), no refusal
 * kept, nothing stored; unknown ids (answered unknown from the tenant directory's memory: nothing is kept); Quarkus's
 * own
 * {@code http_server_requests_seconds} counts the requests that reached a route, as it counts the signed rehearsal.
 * One line in the log at the end. Failure policy: whatever the answers, it ends (count, time or shutdown) and
 * readiness follows; an exchange that gets no answer is closed after {@link #ANSWER_MILLIS}.
 */
@ApplicationScoped
public class RefusalRehearsal {

    /** How long an exchange waits for the first byte of its answer (or the server's close). */
    static final long ANSWER_MILLIS = 2_000;
    private static final long CONNECT_MILLIS = 2_000;
    private static final int BLOCK = 64 * 1024;
    private static final String JSON = "{\"id\":\"evt_rehearsal\",\"type\":\"warmup.refusal\"}";

    private final Vertx vertx;
    private final WarmupConfig config;
    private final RehearsalTenant rehearsal;
    private final int limit;
    private final int offloadBytes;

    public RefusalRehearsal(Vertx vertx, WarmupConfig config, RehearsalTenant rehearsal, IngressConfig ingress,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize ceiling) {
        this.vertx = vertx;
        this.config = config;
        this.rehearsal = rehearsal;
        this.limit = (int) Math.min(ingress.maxBodyBytes(), ceiling.asLongValue());
        this.offloadBytes = ingress.verification().offloadBytes();
    }

    /** One run's tally: answers by status line code, or how the exchange ended without one. */
    public static final class Tally {
        private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
        private final LongAdder sent = new LongAdder();
        private volatile double seconds;

        void count(String outcome) {
            outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
        }

        /** Exchanges finished. */
        public long sent() {
            return sent.sum();
        }

        public double seconds() {
            return seconds;
        }

        /** Outcome to count, in order ("401", "404", "closed", ...). */
        public Map<String, Long> outcomes() {
            Map<String, Long> out = new TreeMap<>();
            outcomes.forEach((k, v) -> out.put(k, v.sum()));
            return Collections.unmodifiableMap(out);
        }
    }

    /**
     * Sends the catalogue round and round to {@code host:port} on {@code buffer.warmup.connections} connections at a
     * time until {@code buffer.warmup.refusals} exchanges ended, {@code buffer.warmup.max-duration} passed or
     * {@code stopping} says so; the rehearsal tenant must be open. Completes with the tally, never fails.
     */
    public Future<Tally> run(String host, int port, BooleanSupplier stopping) {
        Tally tally = new Tally();
        Promise<Tally> done = Promise.promise();
        int lanes = Math.max(1, Math.min(config.connections(), config.refusals()));
        if (config.refusals() < 1) {
            done.complete(tally);
            return done.future();
        }
        List<LongFunction<Shape>> catalogue = catalogue();
        NetClient client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true)
                .setConnectTimeout((int) CONNECT_MILLIS));
        long started = System.nanoTime();
        AtomicBoolean ended = new AtomicBoolean();
        Runnable end = () -> {
            if (ended.compareAndSet(false, true)) {
                tally.seconds = (System.nanoTime() - started) / 1e9; // before completing: its listeners log it
                client.close();
                done.complete(tally);
            }
        };
        // A backstop: whatever an exchange missed (a close event never delivered), the warm-up ends, and readiness
        // with it, once the last exchange could have ended.
        vertx.setTimer(config.maxDuration().toMillis() + CONNECT_MILLIS + ANSWER_MILLIS + 1_000, t -> end.run());
        Run run = new Run(client, host, port, catalogue, tally, started + config.maxDuration().toNanos(), stopping,
                new AtomicInteger(lanes), end);
        for (int i = 0; i < lanes; i++) {
            run.next();
        }
        return done.future();
    }

    /** One request of the catalogue: its bytes, and whether the sender then waits for an answer or leaves. */
    record Shape(Buffer bytes, boolean awaitsAnswer) {
    }

    /** What the edge refuses, one entry per kind; a third of them unknown tenants, as in a flood of made-up ids. */
    List<LongFunction<Shape>> catalogue() {
        String own = "/webhook/" + rehearsal.id();
        List<LongFunction<Shape>> all = new ArrayList<>();
        // Unknown tenants: the lookup, answered from the known ids, the 404.
        LongFunction<Shape> unknownSmall = n -> answered(post(unknown(n), "Content-Length: " + JSON.length()) + JSON);
        LongFunction<Shape> unknownChunked = n -> answered(post(unknown(n), "Transfer-Encoding: chunked")
                + Integer.toHexString(JSON.length()) + "\r\n" + JSON + "\r\n0\r\n\r\n");
        LongFunction<Shape> unknownDeclared = n -> answered(post(unknown(n), "Content-Length: " + limit));
        // The rehearsal tenant's refusals: signatures, sizes, large bodies checked off the heap.
        Shape badMac = answered(post(own, "X-Event-ID: evt_r", "X-Signature: " + "0".repeat(64),
                "Content-Length: " + JSON.length()) + JSON);
        Shape noSignature = answered(post(own, "X-Event-ID: evt_r", "Content-Length: " + JSON.length()) + JSON);
        Shape oddSignature = answered(post(own, "X-Event-ID: evt_r", "X-Signature: v1=zz,!!",
                "Content-Length: " + JSON.length()) + JSON);
        Shape declaredTooLarge = answered(post(own, "Content-Length: " + (limit + 1L)));
        Shape chunkedTooLarge = answered(chunked(post(own, "Transfer-Encoding: chunked"), limit + BLOCK));
        Shape forgedLarge = answered(post(own, "X-Event-ID: evt_r", "X-Signature: " + "0".repeat(64),
                "Content-Length: " + (offloadBytes + 1)) + "x".repeat(offloadBytes + 1));
        Shape forgedLargeChunked = answered(chunked(post(own, "X-Event-ID: evt_r", "X-Signature: " + "0".repeat(64),
                "Transfer-Encoding: chunked"), offloadBytes + 1));
        for (LongFunction<Shape> unknown : List.of(unknownSmall, unknownChunked, unknownDeclared)) {
            for (int i = 0; i < 4; i++) {
                all.add(unknown);
            }
        }
        for (Shape s : List.of(badMac, noSignature, oddSignature, declaredTooLarge, forgedLarge, forgedLargeChunked,
                badMac, noSignature, declaredTooLarge)) {
            all.add(n -> s);
        }
        for (Shape s : broken(own)) {
            all.add(n -> s);
        }
        all.add(n -> chunkedTooLarge); // a megabyte each: one in about forty
        return all;
    }

    /** Broken HTTP and framing lies: Netty's and Vert.x's error paths and the gate's head checks. */
    private List<Shape> broken(String own) {
        List<Shape> all = new ArrayList<>();
        for (String text : List.of("GARBAGE\r\n\r\n",
                "POST " + own + " HTTP/9.9\r\nHost: warmup\r\n\r\n",
                "post " + own + " HTTP/1.1\r\nHost: warmup\r\n\r\n",
                "POST " + own + " HTTP/1.1\nHost: warmup\nContent-Length: 2\n\n{}",
                "POST " + own + " HTTP/1.1\r\nHost: warmup\r\nNo colon here\r\n\r\n",
                "POST " + own + " HTTP/1.1\r\nHost: warmup\r\n X-Folded: yes\r\n\r\n",
                "POST /" + "a".repeat(5_000) + " HTTP/1.1\r\nHost: warmup\r\n\r\n",
                "POST " + own + " HTTP/1.1\r\n" + "X-Many: 1\r\n".repeat(150) + "Host: warmup\r\n\r\n",
                "POST " + own + " HTTP/1.1\r\nHost: warmup\r\nHost: other\r\nContent-Length: 2\r\n\r\n{}",
                "POST " + own + " HTTP/1.1\r\nHost: \r\nContent-Length: 2\r\n\r\n{}",
                "POST " + own + " HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
                "POST /webhook/../q/health HTTP/1.1\r\nHost: warmup\r\n\r\n",
                "POST /webhook/bad%00id HTTP/1.1\r\nHost: warmup\r\nContent-Length: 2\r\n\r\n{}",
                "GET " + own + " HTTP/1.1\r\nHost: warmup\r\n\r\n",
                "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                post(own, "Transfer-Encoding: chunked") + "zz\r\n{}\r\n0\r\n\r\n",
                post(own, "Content-Length: 2", "Transfer-Encoding: chunked") + "2\r\n{}\r\n0\r\n\r\n",
                post(own, "Content-Length: 2", "Content-Length: 3") + "{}",
                post(own, "Content-Length: -1") + "{}",
                post(own, "Transfer-Encoding: gzip, chunked") + "2\r\n{}\r\n0\r\n\r\n")) {
            all.add(answered(text));
        }
        // Cut short: a head, and a body, that never end (the sender leaves).
        all.add(shape("POST " + own + " HTTP/1.1\r\nHost: warm", false));
        all.add(shape(post(own, "X-Event-ID: evt_r", "X-Signature: " + "0".repeat(64), "Content-Length: 1000")
                + "{\"id\":", false));
        return all;
    }

    private String unknown(long n) {
        return "/webhook/" + rehearsal.id() + "-u" + n;
    }

    private static String post(String path, String... headers) {
        StringBuilder head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nHost: warmup\r\n")
                .append("Content-Type: application/json\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    private Shape answered(String text) {
        return shape(text, true);
    }

    /**
     * {@code text} with the rehearsal's header ({@link RehearsalTenant#HEADER}) after its first line, in that line's
     * ending: the gate reports no refusal that carries it, whenever the answer comes.
     */
    private Shape shape(String text, boolean awaitsAnswer) {
        int eol = text.indexOf('\n');
        String marked = eol < 0 ? text
                : text.substring(0, eol + 1) + RehearsalTenant.HEADER + ": " + rehearsal.token()
                        + (eol > 0 && text.charAt(eol - 1) == '\r' ? "\r\n" : "\n") + text.substring(eol + 1);
        return new Shape(Buffer.buffer(marked, StandardCharsets.ISO_8859_1.name()), awaitsAnswer);
    }

    /** A head and {@code bytes} of body in chunks of {@link #BLOCK}, with the last chunk. */
    private static String chunked(String head, int bytes) {
        StringBuilder out = new StringBuilder(head);
        for (int sent = 0; sent < bytes; sent += BLOCK) {
            int n = Math.min(BLOCK, bytes - sent);
            out.append(Integer.toHexString(n)).append("\r\n").append("x".repeat(n)).append("\r\n");
        }
        return out.append("0\r\n\r\n").toString();
    }

    /** The lanes of one run: each sends the next shape once the previous exchange has ended. */
    private final class Run {
        private final NetClient client;
        private final String host;
        private final int port;
        private final List<LongFunction<Shape>> catalogue;
        private final Tally tally;
        private final long deadline;
        private final BooleanSupplier stopping;
        private final AtomicInteger lanes;
        private final Runnable finished;
        private final AtomicLong issued = new AtomicLong();

        Run(NetClient client, String host, int port, List<LongFunction<Shape>> catalogue, Tally tally, long deadline,
                BooleanSupplier stopping, AtomicInteger lanes, Runnable finished) {
            this.client = client;
            this.host = host;
            this.port = port;
            this.catalogue = catalogue;
            this.tally = tally;
            this.deadline = deadline;
            this.stopping = stopping;
            this.lanes = lanes;
            this.finished = finished;
        }

        void next() {
            long n = issued.getAndIncrement();
            if (stopping.getAsBoolean() || n >= config.refusals() || System.nanoTime() > deadline) {
                if (lanes.decrementAndGet() == 0) {
                    finished.run();
                }
                return;
            }
            Shape shape = catalogue.get((int) (n % catalogue.size())).apply(n);
            client.connect(port, host).onComplete(connected -> {
                if (connected.failed()) {
                    ended("not connected");
                    return;
                }
                Exchange exchange = new Exchange(connected.result(), this);
                try {
                    exchange.start(shape);
                } catch (RuntimeException e) {
                    exchange.end("error"); // the socket closed under it: the lane goes on
                    connected.result().close();
                }
            });
        }

        void ended(String outcome) {
            tally.count(outcome);
            tally.sent.increment();
            next();
        }
    }

    /** One connection: ends once, at the answer or the close. */
    private final class Exchange {
        private final NetSocket socket;
        private final Run run;
        private long timer = -1;
        private String outcome;
        private boolean ended;

        Exchange(NetSocket socket, Run run) {
            this.socket = socket;
            this.run = run;
        }

        void start(Shape shape) {
            socket.exceptionHandler(e -> {
                // the server refused and closed while bytes were still going out: the close handler ends it
            });
            socket.closeHandler(v -> end(outcome != null ? outcome : "closed"));
            socket.handler(this::answer);
            socket.write(shape.bytes());
            if (shape.awaitsAnswer()) {
                timer = vertx.setTimer(ANSWER_MILLIS, t -> {
                    end("no answer"); // ends it here: a close event is not waited for
                    socket.close();
                });
            } else {
                outcome = "left";
                socket.close();
            }
        }

        private void answer(Buffer data) {
            if (outcome == null) {
                // "HTTP/1.1 404 ...", or the version the request claimed ("HTTP/9.9 401"): the status after it
                String line = data.getString(0, Math.min(16, data.length()), StandardCharsets.ISO_8859_1.name());
                int space = line.indexOf(' ');
                outcome = line.startsWith("HTTP/") && space > 0 && line.length() >= space + 4
                        ? line.substring(space + 1, space + 4) : "other";
                socket.close();
            }
        }

        private void end(String how) {
            if (ended) {
                return;
            }
            ended = true;
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
            run.ended(how);
        }
    }
}
