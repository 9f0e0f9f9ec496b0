package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The load generator's response reader: statuses of back-to-back responses, whatever the split of the bytes. */
class ResponseParserTests {

    private static final String ACCEPTED = "HTTP/1.1 202 Accepted\r\ncontent-type: application/json\r\n"
            + "content-length: 27\r\n\r\n{\"status\":\"buffered\",\"x\":1}";
    private static final String CHUNKED = "HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n"
            + "Retry-After: 1\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n";
    private static final String NO_BODY = "HTTP/1.1 204 No Content\r\nX-Request-ID: r\r\n\r\n";
    private static final String EMPTY = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

    @Test
    void readsEachStatusOfResponsesSentBackToBack() {
        List<Integer> statuses = new ArrayList<>();
        ResponseParser parser = new ResponseParser();
        parser.feed(ACCEPTED + CHUNKED + NO_BODY + EMPTY + ACCEPTED, statuses::add);
        assertEquals(List.of(202, 503, 204, 200, 202), statuses);
        assertTrue(parser.idle());
    }

    @Test
    void anySplitOfTheBytesGivesTheSameStatuses() {
        byte[] all = (ACCEPTED + CHUNKED + "HTTP/1.1 100 Continue\r\n\r\n" + EMPTY).getBytes(StandardCharsets.ISO_8859_1);
        for (int cut = 1; cut < all.length; cut++) {
            List<Integer> statuses = new ArrayList<>();
            ResponseParser parser = new ResponseParser();
            parser.feed(all, 0, cut, statuses::add);
            parser.feed(all, cut, all.length - cut, statuses::add);
            assertEquals(List.of(202, 503, 200), statuses, "split at byte " + cut);
        }
        List<Integer> oneByOne = new ArrayList<>();
        ResponseParser parser = new ResponseParser();
        for (int i = 0; i < all.length; i++) {
            parser.feed(all, i, 1, oneByOne::add);
        }
        assertEquals(List.of(202, 503, 200), oneByOne);
    }

    @Test
    void aResponseIsNotReportedUntilItsLastBodyByteArrives() {
        List<Integer> statuses = new ArrayList<>();
        ResponseParser parser = new ResponseParser();
        parser.feed(ACCEPTED.substring(0, ACCEPTED.length() - 1), statuses::add);
        assertEquals(List.of(), statuses);
        assertTrue(!parser.idle());
        parser.feed(ACCEPTED.substring(ACCEPTED.length() - 1), statuses::add);
        assertEquals(List.of(202), statuses);
    }

    @Test
    void refusesWhatItCannotFrameOnAKeepAliveConnection() {
        assertThrows(IllegalStateException.class,
                () -> new ResponseParser().feed("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nbody", s -> { }));
        assertThrows(IllegalStateException.class, () -> new ResponseParser().feed("SSH-2.0-OpenSSH\r\n", s -> { }));
        assertThrows(IllegalStateException.class,
                () -> new ResponseParser().feed("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", s -> { }));
        assertThrows(IllegalStateException.class, () -> new ResponseParser()
                .feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", s -> { }));
        String endless = "HTTP/1.1 200 OK\r\nX: " + "a".repeat(ResponseParser.MAX_HEAD_BYTES);
        assertThrows(IllegalStateException.class, () -> new ResponseParser().feed(endless, s -> { }));
    }
}
