package io.webhookbuffer.abuse;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.webhookbuffer.testsupport.RawHttp;

/**
 * Connections pushing oversized unsigned bodies, all at once, round after round: to the tenant limited to 1 KiB, to
 * unknown tenants and to the tenant allowed 25 MiB (where a body within the limit is read, holds the replica's budget
 * and is refused 401 only once read; past the budget, 503 {@code replica_busy}); half with {@code Content-Length},
 * half chunked. Each writes its whole body in 64 KiB blocks unless the server ends the connection first.
 * {@code abuse.big-targets} picks which of the three get them (the done-when names the first two).
 */
final class BigBodies {

    static final String SMALL = "15 MB to a 1 KiB tenant";
    static final String UNKNOWN = "15 MB to unknown tenants";
    static final String LARGE = "15 MB unsigned to a 25 MiB tenant";
    private static final int BLOCK = 64 * 1024;

    private final int port;
    private final Hostile.Targets targets;
    private final Tally tally;
    private final String runId;

    BigBodies(int port, Hostile.Targets targets, Tally tally, String runId) {
        this.port = port;
        this.targets = targets;
        this.tally = tally;
        this.runId = runId;
    }

    /** {@code to}: of {@code small}, {@code unknown}, {@code large} ({@link AbuseSettings#bigTargets}), in turn. */
    void push(int connections, int rounds, int bytes, List<String> to) {
        for (int round = 0; round < rounds; round++) {
            ExecutorService pool = Executors.newFixedThreadPool(connections, r -> AbuseRun.daemon(r, "abuse-big"));
            List<Runnable> uploads = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                int n = round * connections + i;
                String target = to.get(n % to.size());
                String row = switch (target) {
                    case "small" -> SMALL;
                    case "unknown" -> UNKNOWN;
                    default -> LARGE;
                };
                String tenant = switch (target) {
                    case "small" -> targets.small();
                    case "unknown" -> runId + "-big-" + n;
                    default -> targets.large();
                };
                boolean chunked = (n / to.size()) % 2 == 1;
                uploads.add(() -> upload(row, tenant, chunked, bytes));
            }
            uploads.forEach(pool::submit);
            pool.shutdown();
            try {
                pool.awaitTermination(3, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void upload(String row, String tenant, boolean chunked, int bytes) {
        try (RawHttp http = RawHttp.open(port)) {
            try {
                http.send("POST /webhook/" + tenant + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Signature: " + "0".repeat(64)
                        + "\r\n" + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + bytes) + "\r\n\r\n");
                byte[] block = new byte[BLOCK];
                Arrays.fill(block, (byte) 'x');
                for (int sent = 0; sent < bytes; sent += BLOCK) {
                    if (chunked) {
                        http.chunk(block);
                    } else {
                        http.send(block.length <= bytes - sent ? block : Arrays.copyOf(block, bytes - sent));
                    }
                }
                if (chunked) {
                    http.send("0\r\n\r\n");
                }
            } catch (IOException e) {
                // the server stopped the upload: its answer may have come before
            }
            tally.record(row, tenant, http.answer(Duration.ofSeconds(10)));
        } catch (SocketTimeoutException e) {
            tally.count(row, Tally.WAITING);
        } catch (IOException | RuntimeException e) {
            tally.count(row, Tally.CLOSED);
        }
    }
}
