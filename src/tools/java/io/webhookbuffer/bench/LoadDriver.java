package io.webhookbuffer.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;

/**
 * One event loop's share of a {@link LoadGenerator} run: its connections and its part of the schedule. Its fields are
 * touched only on its loop; what it measures goes into the generator's recorders and counters.
 */
final class LoadDriver extends AbstractVerticle {

    private static final int RECENT = 1024;
    private static final int PER_TICK = 1000;
    final Promise<Void> finished = Promise.promise();
    final List<String> accepted = new ArrayList<>();
    private final LoadGenerator load;
    private final LoadGenerator.Settings settings;
    private final int index;
    private final int connections;
    private final long count;
    private final long startNanos;
    private final long warmupNanos;
    private final long totalNanos;
    private final ArrivalSchedule schedule;
    private final String[] recentTenant = new String[RECENT];
    private final String[] recentId = new String[RECENT];
    private int recentSize;
    /** Per tenant, the id whose 202 arrived last (the order check's predecessor). */
    private final Map<String, String> lastAccepted = new HashMap<>();
    private final String host;
    private NetClient net;
    private final List<LeanConnection> open = new ArrayList<>();
    private final ArrayDeque<LeanConnection> idle = new ArrayDeque<>();
    /** Requests due while every connection was busy (open model), sent in order as connections free up. */
    private final ArrayDeque<Queued> queued = new ArrayDeque<>();
    private boolean closing;
    private long expiry = -1;
    private long sent;
    private long outstanding;
    private boolean sending = true;
    volatile long lastStartNanos;

    LoadDriver(LoadGenerator load, int index, int connections, long count, long startNanos) {
        this.load = load;
        this.settings = load.settings;
        this.index = index;
        this.connections = connections;
        this.count = count;
        this.startNanos = startNanos;
        this.warmupNanos = settings.warmup().toNanos();
        this.totalNanos = settings.warmup().plus(settings.duration()).toNanos();
        this.host = settings.url().getHost() + ":" + LoadGenerator.port(settings.url());
        int threads = settings.threads();
        this.schedule = settings.openModel()
                ? new ArrivalSchedule(settings.rate() / threads, settings.burstRate() / threads,
                        settings.warmup().plus(settings.burstAt()).toNanos(), settings.burstFor().toNanos())
                : null;
        this.lastStartNanos = startNanos;
    }

    @Override
    public void start(Promise<Void> started) {
        net = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true).setTcpKeepAlive(true));
        List<Future<Void>> connecting = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            connecting.add(connect());
        }
        Future.all(connecting).onFailure(started::fail).onSuccess(all -> {
            started.complete();
            long delayMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(startNanos - System.nanoTime()));
            expiry = vertx.setPeriodic(1000, t -> expire());
            if (schedule != null) {
                vertx.setTimer(delayMs, t -> vertx.setPeriodic(1, this::tick));
            } else {
                vertx.setTimer(delayMs, t -> {
                    for (int c = 0; c < connections; c++) {
                        next();
                    }
                });
            }
        });
    }

    /** Opens one connection and puts it to work; a connection the server closes is replaced. */
    private Future<Void> connect() {
        return net.connect(LoadGenerator.port(settings.url()), settings.url().getHost()).map(socket -> {
            LeanConnection connection = new LeanConnection(socket, this::replace);
            open.add(connection);
            release(connection);
            return null;
        });
    }

    private void replace(LeanConnection gone) {
        open.remove(gone);
        idle.remove(gone);
        if (!closing) {
            vertx.setTimer(100, t -> connect().onFailure(f -> replace(null)));
        }
    }

    /** A connection is free: it takes the oldest queued request, or waits for the next one. */
    private void release(LeanConnection connection) {
        if (connection.closed()) {
            return;
        }
        Queued q = queued.poll();
        if (q != null) {
            sendOn(connection, q.request, q.answer);
        } else {
            idle.add(connection);
        }
    }

    private void dispatch(Buffer request, LeanConnection.Answer answer) {
        LeanConnection connection = idle.poll();
        if (connection == null) {
            queued.add(new Queued(request, answer));
        } else {
            sendOn(connection, request, answer);
        }
    }

    private void sendOn(LeanConnection connection, Buffer request, LeanConnection.Answer answer) {
        connection.send(request, (status, failure) -> {
            release(connection);
            answer.answered(status, failure);
        });
    }

    private void expire() {
        long now = System.nanoTime();
        for (LeanConnection c : List.copyOf(open)) {
            c.expire(now, LoadGenerator.GRACE.toNanos());
        }
    }

    /**
     * Open model: sends the requests that are due by now, stamped with the time each was due. At most
     * {@link #PER_TICK} per tick, so answers are read between sends when the generator has fallen behind (those
     * requests still count their latency from when they were due).
     */
    private void tick(long timerId) {
        long elapsed = System.nanoTime() - startNanos;
        long due = Math.min(Math.min(count, sent + PER_TICK), schedule.dueBy(Math.min(elapsed, totalNanos - 1)));
        while (sent < due) {
            long dueAt = startNanos + schedule.dueAt(sent);
            sent++;
            if (outstanding >= settings.maxOutstanding()) {
                load.unsent.increment(); // the server is this far behind: counted, and visible in the latency of the rest
                continue;
            }
            send(dueAt, null);
        }
        if ((elapsed >= totalNanos && sent >= schedule.dueBy(totalNanos - 1)) || sent >= count) {
            vertx.cancelTimer(timerId);
            sending = false;
            maybeFinish();
        }
    }

    /** Closed loop: one connection's next request, sent when its previous one was answered. */
    private void next() {
        // The start timer has millisecond resolution and may fire just before startNanos: the first requests still
        // belong to the measured run.
        long now = Math.max(System.nanoTime(), startNanos);
        if (now - startNanos >= totalNanos || sent >= count) {
            sending = false;
            maybeFinish();
            return;
        }
        sent++;
        send(now, this::next);
    }

    private void send(long dueNanos, Runnable then) {
        String tenant;
        String id;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (recentSize > 0 && settings.duplicates() > 0 && random.nextDouble() < settings.duplicates()) {
            int pick = random.nextInt(Math.min(recentSize, RECENT));
            tenant = recentTenant[pick];
            id = recentId[pick];
        } else {
            tenant = settings.tenant(nextTenantIndex(random));
            id = newId(tenant);
        }
        boolean hotRequest = settings.hotShare() > 0 && tenant.equals(settings.tenant(0));
        // With --warmup-path the warm-up goes elsewhere (the ceiling endpoint): this JVM's code gets compiled
        // while the buffer's ingest path stays cold, which is what a cold-start run measures.
        boolean priming = settings.warmupPath() != null && dueNanos - startNanos < warmupNanos;
        outstanding++;
        lastStartNanos = Math.max(lastStartNanos, Math.min(dueNanos, startNanos + totalNanos));
        dispatch(request(priming ? settings.warmupPath() : settings.path(), tenant, id), (status, failure) -> {
            outstanding--;
            settle(tenant, id, dueNanos, priming, hotRequest, status, failure);
            if (then != null) {
                then.run();
            } else {
                maybeFinish();
            }
        });
    }

    /** With {@code --hot-share}, tenant 0 that share of the time and the others in turn; else each in turn. */
    private int nextTenantIndex(ThreadLocalRandom random) {
        if (settings.hotShare() > 0) {
            boolean hotTenant = random.nextDouble() < settings.hotShare();
            return hotTenant ? 0 : 1 + (int) (load.nextTenant.getAndIncrement() % (settings.tenants() - 1));
        }
        int from = settings.tenantFrom();
        return from + (int) (load.nextTenant.getAndIncrement() % (settings.tenants() - from));
    }

    /** A new event id, {@code <id>~<previous>} when this tenant has a 202 already (the order check's predecessor). */
    private String newId(String tenant) {
        String previous = lastAccepted.get(tenant);
        return load.runId + "-" + index + "-" + sent + (previous == null ? "" : "~" + previous.substring(0,
                previous.indexOf('~') < 0 ? previous.length() : previous.indexOf('~')));
    }

    /** Records one answer (a status, or the failure of the request) where it counts. */
    private void settle(String tenant, String id, long dueNanos, boolean priming, boolean hotRequest, int status,
            Throwable failure) {
        long latencyMicros = (System.nanoTime() - dueNanos) / 1000;
        boolean measured = dueNanos - startNanos >= warmupNanos;
        if (failure == null) {
            load.perSecond.recordValue(latencyMicros);
        } else {
            load.failedThisSecond.increment();
        }
        if (priming) {
            // nothing was stored: neither an accepted id nor a measurement
        } else if (failure == null) {
            answered(tenant, id, status, measured, hotRequest, latencyMicros);
            if (measured) {
                settings.windows().record(dueNanos - startNanos - warmupNanos, status, latencyMicros);
            }
        } else if (measured) {
            load.errors.computeIfAbsent(failure.getClass().getSimpleName(), k -> new LongAdder()).increment();
        }
    }

    /** The whole request as one buffer: request line, headers (with the scheme's signature) and body. */
    private Buffer request(String path, String tenant, String id) {
        byte[] body = body(id);
        StringBuilder head = new StringBuilder(256).append("POST ").append(path).append(tenant)
                .append(" HTTP/1.1\r\nHost: ").append(host)
                .append("\r\nContent-Type: application/json\r\nContent-Length: ").append(body.length)
                .append("\r\n");
        load.signer.sign(settings.webhookSecret(), id, body,
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        return Buffer.buffer(headBytes.length + body.length).appendBytes(headBytes).appendBytes(body);
    }

    private void answered(String tenant, String id, int status, boolean measured, boolean hotRequest,
            long latencyMicros) {
        if (status == 202) {
            accepted.add(tenant + '\t' + id);
            lastAccepted.put(tenant, id);
            int slot = recentSize++ % RECENT;
            recentTenant[slot] = tenant;
            recentId[slot] = id;
        }
        if (!measured) {
            return;
        }
        load.statuses.computeIfAbsent(Integer.toString(status), k -> new LongAdder()).increment();
        load.all.recordValue(latencyMicros);
        if (settings.hotShare() > 0) {
            (hotRequest ? load.hot : load.quiet).recordValue(latencyMicros);
        }
    }

    private void maybeFinish() {
        if (!sending && outstanding == 0 && !finished.future().isComplete()) {
            closing = true;
            vertx.cancelTimer(expiry);
            List.copyOf(open).forEach(LeanConnection::close);
            net.close();
            finished.tryComplete();
        }
    }

    /** A JSON body of about {@code --body-bytes}, carrying the event id. */
    private byte[] body(String id) {
        String head = "{\"id\":\"" + id + "\",\"type\":\"invoice.paid\",\"data\":{\"filler\":\"";
        String tail = "\"}}";
        int fill = Math.max(0, settings.bodyBytes() - head.length() - tail.length());
        return (head + load.filler.substring(0, Math.min(fill, load.filler.length())) + tail).getBytes(StandardCharsets.UTF_8);
    }

    /** A request waiting for a free connection. */
    private record Queued(Buffer request, LeanConnection.Answer answer) {
    }
}
