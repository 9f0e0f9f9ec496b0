package io.webhookbuffer.abuse;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

import io.webhookbuffer.testsupport.RawHttp;

/**
 * What came back to the hostile traffic, by row of the table: every status, the 503s that were deliberate (with
 * {@code Retry-After} and {@code "status":"unavailable"}), the connections closed or reset without an answer and those
 * still waiting when the sender gave up; and the first few requests that got a 5xx that was not deliberate.
 */
final class Tally {

    static final int CLOSED = -1;
    static final int WAITING = -2;

    /** Per row: status (or CLOSED / WAITING) to count. */
    private final Map<String, Map<Integer, LongAdder>> rows = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> deliberate = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> undeliberate = new ConcurrentLinkedQueue<>();

    /** Sends {@code bytes} on a fresh connection and records the answer under {@code row}. */
    void exchange(String row, String name, int port, byte[] bytes, boolean halfClose, Duration within) {
        try (RawHttp http = RawHttp.open(port)) {
            try {
                http.send(bytes);
                if (halfClose) {
                    http.endOutput();
                }
            } catch (IOException e) {
                // the server closed while the request was still being written: its answer may still be readable
            }
            record(row, name, http.answer(within));
        } catch (SocketTimeoutException e) {
            count(row, WAITING);
        } catch (IOException | RuntimeException e) {
            count(row, CLOSED);
        }
    }

    void record(String row, String name, RawHttp.Answer answer) {
        int status = answer.status();
        count(row, status);
        if (status == 503 && answer.header("Retry-After") != null && answer.body().contains("\"unavailable\"")) {
            deliberate.computeIfAbsent(row, r -> new LongAdder()).increment();
        } else if (status >= 500 && undeliberate.size() < 20) {
            undeliberate.add(row + " / " + name + ": " + status + " " + answer.body());
        }
    }

    void count(String row, int status) {
        rows.computeIfAbsent(row, r -> new ConcurrentHashMap<>()).computeIfAbsent(status, s -> new LongAdder())
                .increment();
    }

    /** Status to count for one row, in order (CLOSED and WAITING first). */
    Map<Integer, Long> of(String row) {
        Map<Integer, Long> out = new TreeMap<>();
        rows.getOrDefault(row, Map.of()).forEach((status, n) -> out.put(status, n.sum()));
        return out;
    }

    long deliberate503(String row) {
        LongAdder n = deliberate.get(row);
        return n == null ? 0 : n.sum();
    }

    /** Every 5xx that was not a deliberate 503, by row. */
    long undeliberate5xx(String row) {
        return of(row).entrySet().stream().filter(e -> e.getKey() >= 500).mapToLong(Map.Entry::getValue).sum()
                - deliberate503(row);
    }

    List<String> undeliberateSamples() {
        return List.copyOf(undeliberate);
    }

    long total(String row) {
        return of(row).values().stream().mapToLong(Long::longValue).sum();
    }
}
