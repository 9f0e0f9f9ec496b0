package io.webhookbuffer.abuse;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.webhookbuffer.testsupport.RawHttp;

/**
 * A few hundred slow connections held at once: half dribble a request head (one header byte every {@link #DRIP}, well
 * inside the idle timeout), half send a complete head with {@code Content-Length: 1000} to a tenant that takes it and
 * then dribble the body. At the end of the hold each is looked at: answered (the body deadline's 408), closed, or
 * still open ({@link Tally#WAITING}).
 */
final class SlowConnections {

    static final String HEADS = "slow heads (slowloris)";
    static final String BODIES = "slow bodies";
    static final Duration DRIP = Duration.ofSeconds(3);

    private record Slow(String row, RawHttp http) {
    }

    private final int port;
    private final Hostile.Targets targets;
    private final Tally tally;
    private final List<Slow> open = new ArrayList<>();

    SlowConnections(int port, Hostile.Targets targets, Tally tally) {
        this.port = port;
        this.targets = targets;
        this.tally = tally;
    }

    void hold(int count, Duration hold) {
        long end = System.currentTimeMillis() + hold.toMillis();
        List<Slow> live = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean head = i % 2 == 0;
            try {
                RawHttp http = RawHttp.open(port);
                http.send(head ? "POST /webhook/" + targets.legit() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                        : "POST /webhook/" + targets.large() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Signature: "
                                + "0".repeat(64) + "\r\nContent-Length: 1000\r\n\r\n{");
                live.add(new Slow(head ? HEADS : BODIES, http));
            } catch (IOException e) {
                tally.count(head ? HEADS : BODIES, Tally.CLOSED);
            }
        }
        synchronized (open) {
            open.addAll(live);
        }
        byte[] drip = "a".getBytes(StandardCharsets.US_ASCII);
        while (System.currentTimeMillis() < end) {
            sleep(Math.min(DRIP.toMillis(), Math.max(1, end - System.currentTimeMillis())));
            for (Slow s : live) {
                try {
                    s.http().send(drip);
                } catch (IOException e) {
                    // closed by the server: seen at the end
                }
            }
        }
        for (Slow s : live) {
            look(s);
        }
    }

    private void look(Slow s) {
        try {
            tally.record(s.row(), "slow", s.http().answer(Duration.ofMillis(20)));
        } catch (SocketTimeoutException e) {
            tally.count(s.row(), Tally.WAITING);
        } catch (IOException | RuntimeException e) {
            tally.count(s.row(), Tally.CLOSED);
        }
    }

    /** Closes whatever is still open. */
    void finish() {
        synchronized (open) {
            for (Slow s : open) {
                try {
                    s.http().close();
                } catch (IOException e) {
                    // already gone
                }
            }
            open.clear();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
