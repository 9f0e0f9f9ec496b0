package io.webhookbuffer.abuse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.webhookbuffer.testsupport.Signed;

/**
 * The hostile requests of the flood, each the exact bytes sent on a fresh connection: broken HTTP, bad chunking,
 * Content-Length lies, huge and many headers, odd paths and tenant ids, malformed signature headers for several
 * providers, deeply nested JSON for the providers that read the id from the body, and (made fresh each time) unknown
 * tenants. None carries a valid signature except the group {@code signed odd JSON} (to its own tenant).
 *
 * @param halfClose whether the sender ends its side after the bytes (for requests that promise more than they send)
 */
record Hostile(String group, String name, byte[] bytes, boolean halfClose) {

    /** The tenants the flood aims at, by role. */
    record Targets(String legit, String small, String large, Map<String, String> providers, String odd,
            String oddSecret) {
    }

    static final String UNKNOWN = "unknown tenants";
    private static final String BROKEN = "broken HTTP";
    private static final String CHUNKING = "bad chunking";
    private static final String LENGTH = "Content-Length lies";
    private static final String HEADERS = "huge and many headers";
    private static final String PATHS = "odd paths and tenant ids";
    private static final String SIGNATURES = "malformed signatures";
    private static final String NESTED = "deeply nested JSON";
    static final String SIGNED_ODD = "signed odd JSON";
    /** The catalogue's kinds, in its order: the names {@code abuse.hostile-groups} takes. */
    static final List<String> GROUPS = List.of(BROKEN, CHUNKING, LENGTH, HEADERS, PATHS, SIGNATURES, NESTED, SIGNED_ODD);

    static List<Hostile> catalogue(Targets t) {
        List<Hostile> all = new ArrayList<>();
        broken(all, t);
        chunking(all, t);
        lengths(all, t);
        headers(all, t);
        paths(all, t);
        signatures(all, t);
        nested(all, t);
        return all;
    }

    /** The catalogue's requests of the given kinds ({@link #GROUPS}; empty: all of them). */
    static List<Hostile> catalogue(Targets t, List<String> groups) {
        return catalogue(t).stream().filter(h -> groups.isEmpty() || groups.contains(h.group())).toList();
    }

    /** A request to a tenant id nobody provisioned, in one of a few shapes. */
    static Hostile unknown(String prefix, long n) {
        String path = "/webhook/" + prefix + "-nobody-" + n;
        String body = "{\"id\":\"evt_" + n + "\"}";
        return switch ((int) (n % 4)) {
            case 0 -> raw(UNKNOWN, "small body", post(path, "Content-Length: " + body.length()) + body);
            case 1 -> raw(UNKNOWN, "chunked", post(path, "Transfer-Encoding: chunked") + chunked(body));
            case 2 -> half(UNKNOWN, "25 MB declared, none sent", post(path, "Content-Length: 25000000"));
            default -> raw(UNKNOWN, "signed-looking", post(path, "X-Signature: " + "a".repeat(64),
                    "X-Event-ID: evt_" + n, "Content-Length: " + body.length()) + body);
        };
    }

    private static void broken(List<Hostile> all, Targets t) {
        String w = "/webhook/" + t.legit();
        all.add(raw(BROKEN, "garbage line", "GARBAGE\r\n\r\n"));
        all.add(new Hostile(BROKEN, "random bytes", randomBytes(512), true));
        all.add(raw(BROKEN, "HTTP/9.9", "POST " + w + " HTTP/9.9\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "HTTP/2.0 text", "POST " + w + " HTTP/2.0\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "HTTP/0.9", "GET /\r\n\r\n"));
        all.add(raw(BROKEN, "no version", "POST " + w + "\r\nHost: h\r\n\r\n"));
        all.add(raw(BROKEN, "lowercase method", "post " + w + " HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "unknown method", "BREW " + w + " HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "extra spaces", "POST   " + w + "   HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "bare LF", "POST " + w + " HTTP/1.1\nHost: h\nContent-Length: 2\n\n{}"));
        all.add(raw(BROKEN, "header without colon", "POST " + w + " HTTP/1.1\r\nHost: h\r\nNoColonHere\r\n"
                + "Content-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "space before colon", "POST " + w + " HTTP/1.1\r\nHost: h\r\nContent-Length : 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "obs-fold", "POST " + w + " HTTP/1.1\r\nHost: h\r\nX-Signature: aa\r\n bb\r\n"
                + "Content-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "control bytes in a value", "POST " + w + " HTTP/1.1\r\nHost: h\r\nX-Event-ID: a\u0001\u007f"
                + "\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "request line too long", "POST /webhook/" + "a".repeat(5000) + " HTTP/1.1\r\nHost: h\r\n"
                + "Content-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "absolute-form", "POST http://evil.example" + w + " HTTP/1.1\r\nHost: h\r\n"
                + "Content-Length: 2\r\n\r\n{}"));
        all.add(raw(BROKEN, "asterisk-form", "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n"));
        all.add(raw(BROKEN, "CONNECT", "CONNECT 127.0.0.1:5432 HTTP/1.1\r\nHost: 127.0.0.1:5432\r\n\r\n"));
        all.add(raw(BROKEN, "h2c upgrade", "POST " + w + " HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\nContent-Length: 2\r\n\r\n{}"));
        all.add(new Hostile(BROKEN, "h2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1),
                true));
        all.add(raw(BROKEN, "TLS hello on cleartext", new String(new byte[] { 0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01 },
                StandardCharsets.ISO_8859_1) + "\r\n\r\n"));
        all.add(raw(BROKEN, "GET ingest", "GET " + w + " HTTP/1.1\r\nHost: h\r\n\r\n"));
        all.add(raw(BROKEN, "pipelined garbage after a request", "POST " + w + " HTTP/1.1\r\nHost: h\r\nContent-Length: 2"
                + "\r\n\r\n{}GARBAGE\r\n\r\n"));
    }

    private static void chunking(List<Hostile> all, Targets t) {
        for (String tenant : List.of(t.legit(), t.small(), t.large())) {
            String head = post("/webhook/" + tenant, "X-Signature: " + "0".repeat(64), "Transfer-Encoding: chunked");
            all.add(raw(CHUNKING, "size not hex", head + "zz\r\nhello\r\n0\r\n\r\n"));
            all.add(raw(CHUNKING, "negative size", head + "-5\r\nhello\r\n0\r\n\r\n"));
            all.add(raw(CHUNKING, "size past 2^63", head + "ffffffffffffffffff\r\nhello\r\n0\r\n\r\n"));
            all.add(raw(CHUNKING, "size larger than the data", head + "100\r\nhello\r\n0\r\n\r\n"));
            all.add(raw(CHUNKING, "no CRLF after the data", head + "5\r\nhelloXX0\r\n\r\n"));
            all.add(half(CHUNKING, "no last chunk", head + "5\r\nhello\r\n"));
            all.add(raw(CHUNKING, "junk extensions", head + "5;;;===;\"\r\nhello\r\n0\r\n\r\n"));
            all.add(raw(CHUNKING, "junk trailer", head + "5\r\nhello\r\n0\r\nX-Trailer-No-Colon\r\n\r\n"));
            all.add(raw(CHUNKING, "bare LF framing", head + "5\nhello\n0\n\n"));
            all.add(raw(CHUNKING, "10,000 one-byte chunks", head + "1\r\nx\r\n".repeat(10_000) + "0\r\n\r\n"));
        }
    }

    private static void lengths(List<Hostile> all, Targets t) {
        for (String tenant : List.of(t.legit(), t.small())) {
            String w = "/webhook/" + tenant;
            String sig = "X-Signature: " + "0".repeat(64);
            all.add(raw(LENGTH, "shorter than the body", post(w, sig, "Content-Length: 2") + "{}{\"x\":1}"));
            all.add(half(LENGTH, "longer than the body", post(w, sig, "Content-Length: 500") + "{\"x\":1}"));
            all.add(raw(LENGTH, "two different", post(w, sig, "Content-Length: 2", "Content-Length: 8") + "{}{\"x\":1}"));
            all.add(raw(LENGTH, "two equal", post(w, sig, "Content-Length: 2", "Content-Length: 2") + "{}"));
            all.add(raw(LENGTH, "list value", post(w, sig, "Content-Length: 2, 2") + "{}"));
            all.add(raw(LENGTH, "with Transfer-Encoding", post(w, sig, "Content-Length: 4", "Transfer-Encoding: chunked")
                    + chunked("{}")));
            all.add(raw(LENGTH, "TE chunked, identity", post(w, sig, "Transfer-Encoding: chunked, identity")
                    + chunked("{}")));
            all.add(raw(LENGTH, "TE not chunked last", post(w, sig, "Transfer-Encoding: chunked", "Transfer-Encoding: x")
                    + chunked("{}")));
            all.add(raw(LENGTH, "TE xchunked", post(w, sig, "Transfer-Encoding: xchunked", "Content-Length: 2") + "{}"));
            all.add(raw(LENGTH, "negative", post(w, sig, "Content-Length: -1") + "{}"));
            all.add(raw(LENGTH, "plus sign", post(w, sig, "Content-Length: +2") + "{}"));
            all.add(raw(LENGTH, "hex", post(w, sig, "Content-Length: 0x2") + "{}"));
            all.add(raw(LENGTH, "past 2^63", post(w, sig, "Content-Length: 99999999999999999999") + "{}"));
            all.add(raw(LENGTH, "past 2^31", post(w, sig, "Content-Length: 4294967298") + "{}"));
            all.add(half(LENGTH, "over the ceiling, nothing sent", post(w, sig, "Content-Length: 26214401")));
            all.add(raw(LENGTH, "Expect 100-continue over the limit", post(w, sig, "Expect: 100-continue",
                    "Content-Length: 20000000")));
        }
    }

    private static void headers(List<Hostile> all, Targets t) {
        String w = "/webhook/" + t.legit();
        all.add(raw(HEADERS, "one 30 KiB value", post(w, "X-Big: " + "v".repeat(30 * 1024), "Content-Length: 2") + "{}"));
        all.add(raw(HEADERS, "19 KiB value (under the cap)", post(w, "X-Big: " + "v".repeat(19 * 1024),
                "Content-Length: 2") + "{}"));
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 150; i++) {
            many.append("X-H").append(i).append(": ").append(i).append("\r\n");
        }
        all.add(raw(HEADERS, "150 header lines",
                "POST " + w + " HTTP/1.1\r\nHost: h\r\n" + many + "Content-Length: 2\r\n\r\n{}"));
        StringBuilder thousands = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            thousands.append("A: b\r\n");
        }
        all.add(raw(HEADERS, "3,000 header lines", "POST " + w + " HTTP/1.1\r\nHost: h\r\n" + thousands
                + "Content-Length: 2\r\n\r\n{}"));
        all.add(raw(HEADERS, "100 X-Signature lines", "POST " + w + " HTTP/1.1\r\nHost: h\r\n"
                + ("X-Signature: " + "0".repeat(64) + "\r\n").repeat(100) + "Content-Length: 2\r\n\r\n{}"));
        all.add(raw(HEADERS, "very long header name", post(w, "X-" + "n".repeat(15_000) + ": v", "Content-Length: 2")
                + "{}"));
    }

    private static void paths(List<Hostile> all, Targets t) {
        String l = t.legit();
        for (String path : List.of("/webhook/%2e%2e/" + l, "/webhook/..%2f" + l, "/webhook/x%2F" + l,
                "/webhook/x/../" + l, "/webhook/./" + l, "/webhook/" + l + "/..", "/webhook/" + l + "%00",
                "/webhook/" + l + "%2500", "//webhook//" + l, "/webhook/" + l + "/", "/webhook/" + l + "?x=../../q",
                "/webhook/" + l + ";jsessionid=1", "/WEBHOOK/" + l, "/webhook/", "/webhook", "/webhook/" + "a".repeat(65),
                "/webhook/" + "a".repeat(3000), "/webhook/%ZZ", "/webhook/%", "/webhook/t\u00e9nant",
                "/webhook/%E2%80%AEevil", "/webhook/%C0%AE%C0%AE/q", "/webhook/../q/health/ready",
                "/webhook/..%5c..%5cq", "/control/tenants/" + l, "/q/../webhook/" + l, "/webhook/\t" + l)) {
            all.add(raw(PATHS, path.length() > 60 ? path.substring(0, 60) + "..." : path,
                    post(path, "X-Signature: " + "0".repeat(64), "Content-Length: 2") + "{}"));
        }
        byte[] nonAscii = ("POST /webhook/" + l).getBytes(StandardCharsets.ISO_8859_1);
        all.add(new Hostile(PATHS, "raw UTF-8 bytes in the path", concat(nonAscii,
                "\u00e9\u00fc".getBytes(StandardCharsets.UTF_8), " HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"
                        .getBytes(StandardCharsets.ISO_8859_1)), false));
        all.add(raw(PATHS, "raw NUL in the path", "POST /webhook/" + l + "\u0000x HTTP/1.1\r\nHost: h\r\n"
                + "Content-Length: 2\r\n\r\n{}"));
    }

    private static void signatures(List<Hostile> all, Targets t) {
        Map<String, List<String[]>> bad = Map.ofEntries(
                Map.entry("generic", List.of(h("X-Signature", ""), h("X-Signature", "ZZ"), h("X-Signature",
                        "A".repeat(64)), h("X-Signature", "0".repeat(63)), h("X-Signature", "0".repeat(10_000)))),
                Map.entry("stripe", List.of(h("Stripe-Signature", ""), h("Stripe-Signature", "t=abc,v1=zz"),
                        h("Stripe-Signature", "v1=" + "0".repeat(64)), h("Stripe-Signature", "t=99999999999999999999,v1=00"),
                        h("Stripe-Signature", "t=1" + ",v1=00".repeat(500)), h("Stripe-Signature", ",,,,=,=,"))),
                Map.entry("github", List.of(h("X-Hub-Signature-256", "sha256="), h("X-Hub-Signature-256", "sha256=zz"),
                        h("X-Hub-Signature-256", "sha1=abc"), h("X-Hub-Signature-256", "sha256=" + "0".repeat(64)))),
                Map.entry("shopify", List.of(h("X-Shopify-Hmac-Sha256", "!!!"), h("X-Shopify-Hmac-Sha256", "===="),
                        h("X-Shopify-Hmac-Sha256", "QUFB"))),
                Map.entry("slack", List.of(h("X-Slack-Signature", "v0=zz", "X-Slack-Request-Timestamp", "abc"),
                        h("X-Slack-Signature", "v0=" + "0".repeat(64), "X-Slack-Request-Timestamp", "-1"),
                        h("X-Slack-Signature", "v1=00", "X-Slack-Request-Timestamp", "1e10"))),
                Map.entry("standard-webhooks", List.of(h("webhook-signature", "v1,", "webhook-id", "m", "webhook-timestamp",
                        "x"), h("webhook-signature", "v1,!!!", "webhook-id", "m", "webhook-timestamp", "1"),
                        h("webhook-signature", "v1,AAAA ".repeat(200), "webhook-id", "m", "webhook-timestamp", "1"),
                        h("webhook-signature", "v2,abc"))),
                Map.entry("paddle", List.of(h("Paddle-Signature", "ts=;h1="), h("Paddle-Signature", "h1=zz"),
                        h("Paddle-Signature", "ts=1;h1=" + "0".repeat(64)))),
                Map.entry("intercom", List.of(h("X-Hub-Signature", "sha1="), h("X-Hub-Signature", "sha1=zz"))),
                Map.entry("linear", List.of(h("Linear-Signature", "zz"), h("Linear-Signature", ""))),
                Map.entry("gitlab", List.of(h("X-Gitlab-Token", ""), h("X-Gitlab-Token", "x".repeat(5000)))));
        bad.forEach((provider, variants) -> {
            String tenant = "generic".equals(provider) ? t.legit() : t.providers().get(provider);
            for (String[] headers : variants) {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < headers.length; i += 2) {
                    lines.add(headers[i] + ": " + headers[i + 1]);
                }
                String body = "{\"id\":\"evt_forged\",\"event_id\":\"evt_forged\",\"webhookTimestamp\":1}";
                lines.add("Content-Type: application/json");
                lines.add("Content-Length: " + body.length());
                all.add(raw(SIGNATURES, provider + " " + lines.get(0).substring(0, Math.min(40, lines.get(0).length())),
                        post("/webhook/" + tenant, lines.toArray(String[]::new)) + body));
            }
        });
    }

    private static void nested(List<Hostile> all, Targets t) {
        int depth = 100_000;
        List<String[]> bodies = List.of(
                new String[] { "arrays before the id", "{\"data\":" + "[".repeat(depth) + "]".repeat(depth)
                        + ",\"id\":\"evt_deep\",\"event_id\":\"evt_deep\"}" },
                new String[] { "objects before the id", "{\"data\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)
                        + ",\"id\":\"evt_deep\",\"event_id\":\"evt_deep\"}" },
                new String[] { "id as a deep object", "{\"id\":" + "[".repeat(depth) + "]".repeat(depth) + "}" },
                new String[] { "unclosed", "{\"data\":" + "[".repeat(depth) },
                new String[] { "top-level array", "[".repeat(depth) + "]".repeat(depth) });
        for (String provider : List.of("stripe", "slack", "paddle", "intercom")) {
            for (String[] body : bodies) {
                all.add(raw(NESTED, provider + " " + body[0], post("/webhook/" + t.providers().get(provider),
                        "Content-Type: application/json", "Content-Length: " + body[1].length()) + body[1]));
            }
        }
        // The same bodies signed with the odd tenant's secret (Stripe's scheme): the id parser sees them.
        for (String[] body : bodies) {
            String ts = Long.toString(System.currentTimeMillis() / 1000);
            String mac = Signed.signature(t.oddSecret(), (ts + "." + body[1]).getBytes(StandardCharsets.UTF_8));
            all.add(raw(SIGNED_ODD, body[0], post("/webhook/" + t.odd(), "Stripe-Signature: t=" + ts + ",v1=" + mac,
                    "Content-Type: application/json", "Content-Length: " + body[1].length()) + body[1]));
        }
    }

    private static String[] h(String... nameValue) {
        return nameValue;
    }

    private static String post(String path, String... headers) {
        StringBuilder head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    private static String chunked(String body) {
        return Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
    }

    private static Hostile raw(String group, String name, String text) {
        return new Hostile(group, name, text.getBytes(StandardCharsets.ISO_8859_1), false);
    }

    private static Hostile half(String group, String name, String text) {
        return new Hostile(group, name, text.getBytes(StandardCharsets.ISO_8859_1), true);
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        int size = 0;
        for (byte[] part : parts) {
            size += part.length;
        }
        byte[] all = new byte[size];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
