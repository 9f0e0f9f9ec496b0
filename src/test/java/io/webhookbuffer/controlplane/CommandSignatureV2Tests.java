package io.webhookbuffer.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.webhookbuffer.controlplane.CommandSignature.Direction;
import io.webhookbuffer.controlplane.CommandSignature.SignedRequest;

/** The v2 format (pure): what it binds, how it is told from v1, and {@code buffer.control.accept-v1}. */
class CommandSignatureV2Tests {

    private static final String SECRET = "control-secret-current-0123456789";
    private static final List<String> SECRETS = List.of(SECRET);
    private static final long NOW = 1_700_000_000L;
    private static final String TS = Long.toString(NOW);
    private static final String NONCE = "n0nce_ABCdef-123456";
    private static final String PUT_A = "/control/tenants/acme";
    private static final byte[] BODY = "{\"active\":true,\"secrets\":[\"whsec_1\"],\"rateLimit\":100}"
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY = new byte[0];

    private static String sign(Direction direction, String method, String target, byte[] body) {
        return CommandSignature.signV2(SECRET, direction, method, target, TS, NONCE, body);
    }

    private static Refusal check(Direction direction, String method, String target, String signature, byte[] body,
            boolean acceptV1) {
        return CommandSignature.check(SECRETS, direction, new SignedRequest(method, target, TS, NONCE, signature, body),
                NOW, 300, acceptV1);
    }

    private static Refusal command(String method, String target, String signature, byte[] body) {
        return check(Direction.COMMAND, method, target, signature, body, false);
    }

    @Test
    void theSignatureMatchesOpenssl() {
        // printf 'webhook-buffer-v2\ncommand\nPUT\n/control/tenants/acme\n1700000000\nn0nce_ABCdef-123456\n%s' "$BODY" |
        //   openssl dgst -sha256 -hmac control-secret-current-0123456789 -binary | openssl base64 -A | tr '+/' '-_' |
        //   tr -d '='
        assertEquals("v2=9ix6mCffq8ZuR1MDDtWmjMg8DsiYyfZzATen5RQe5Hs", sign(Direction.COMMAND, "PUT", PUT_A, BODY));
        assertNull(command("PUT", PUT_A, "v2=9ix6mCffq8ZuR1MDDtWmjMg8DsiYyfZzATen5RQe5Hs", BODY));
    }

    @Test
    void anotherPathIsABadSignature() {
        String forA = sign(Direction.COMMAND, "PUT", PUT_A, BODY);
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", "/control/tenants/acme2", forA, BODY));
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", "/control/tenants/acm", forA, BODY));
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", "/control/tenants/ACME", forA, BODY));
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", PUT_A + "/", forA, BODY));
    }

    @Test
    void anotherMethodIsABadSignature() {
        String get = sign(Direction.COMMAND, "GET", PUT_A, EMPTY);
        assertNull(command("GET", PUT_A, get, EMPTY));
        assertEquals(Refusal.BAD_SIGNATURE, command("POST", PUT_A, get, EMPTY));
        assertEquals(Refusal.BAD_SIGNATURE, command("DELETE", PUT_A, get, EMPTY));
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", PUT_A, get, EMPTY));
    }

    @Test
    void theQueryIsSignedAsSent() {
        String path = PUT_A + "/dead-letters";
        String signed = sign(Direction.COMMAND, "GET", path + "?limit=1&after=5", EMPTY);
        assertNull(command("GET", path + "?limit=1&after=5", signed, EMPTY));
        for (String other : new String[] { path, path + "?", path + "?limit=1", path + "?after=5&limit=1",
                path + "?limit=1&after=50", path + "?limit=%31&after=5" }) {
            assertEquals(Refusal.BAD_SIGNATURE, command("GET", other, signed, EMPTY), other);
        }
    }

    @Test
    void aPushDoesNotVerifyAsACommandNorACommandAsAPush() {
        String push = sign(Direction.PUSH, "POST", "/usage", BODY);
        String command = sign(Direction.COMMAND, "POST", "/usage", BODY);
        assertNull(check(Direction.PUSH, "POST", "/usage", push, BODY, false));
        assertEquals(Refusal.BAD_SIGNATURE, check(Direction.COMMAND, "POST", "/usage", push, BODY, true));
        assertEquals(Refusal.BAD_SIGNATURE, check(Direction.PUSH, "POST", "/usage", command, BODY, true));
    }

    @Test
    void theBodyTimestampAndNonceStayBound() {
        String signed = sign(Direction.COMMAND, "PUT", PUT_A, BODY);
        byte[] tampered = new String(BODY, StandardCharsets.UTF_8).replace("100", "999").getBytes(StandardCharsets.UTF_8);
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", PUT_A, signed, tampered));
        SignedRequest otherTs = new SignedRequest("PUT", PUT_A, Long.toString(NOW - 1), NONCE, signed, BODY);
        assertEquals(Refusal.BAD_SIGNATURE, CommandSignature.check(SECRETS, Direction.COMMAND, otherTs, NOW, 300, false));
        SignedRequest otherNonce = new SignedRequest("PUT", PUT_A, TS, NONCE + "x", signed, BODY);
        assertEquals(Refusal.BAD_SIGNATURE,
                CommandSignature.check(SECRETS, Direction.COMMAND, otherNonce, NOW, 300, false));
        SignedRequest stale = new SignedRequest("PUT", PUT_A, TS, NONCE, signed, BODY);
        assertEquals(Refusal.STALE_TIMESTAMP, CommandSignature.check(SECRETS, Direction.COMMAND, stale, NOW + 301, 300,
                false));
    }

    @Test
    void v1AndV2CannotBeMistakenForEachOther() {
        String v1 = CommandSignature.signV1(SECRET, TS, NONCE, BODY);
        String v2 = sign(Direction.COMMAND, "PUT", PUT_A, BODY);
        assertEquals(1, CommandSignature.version(v1));
        assertEquals(2, CommandSignature.version(v2));
        assertNull(check(Direction.COMMAND, "PUT", PUT_A, v1, BODY, true), "v1 accepted while accept-v1");
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", PUT_A, "v2=" + v1, BODY), "a v1 MAC labelled v2");
        assertEquals(Refusal.BAD_SIGNATURE, check(Direction.COMMAND, "PUT", PUT_A, v2.substring(3), BODY, true),
                "a v2 MAC without its label is no v1 signature");
    }

    @Test
    void v1IsRefusedUnlessAcceptedAndSaysSo() {
        String v1 = CommandSignature.signV1(SECRET, TS, NONCE, BODY);
        assertEquals(Refusal.V1_REFUSED, command("PUT", PUT_A, v1, BODY));
        assertEquals(Refusal.V1_REFUSED, command("PUT", PUT_A, v1 + "=", BODY), "the padded v1 form too");
        assertEquals(Refusal.MISSING_HEADERS, command("PUT", PUT_A, "garbage", BODY), "no v1 signature: malformed");
        assertEquals(Refusal.NOT_CONFIGURED, CommandSignature.check(List.of(), Direction.COMMAND,
                new SignedRequest("PUT", PUT_A, TS, NONCE, v1, BODY), NOW, 300, false));
    }

    @ParameterizedTest
    @ValueSource(strings = { "v2=", "v2=short", "v2=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "V2=AAAAAAAAAAAAAAAAAAAAAAAAA",
            "v2=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+", "v2= AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "v2=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })
    void aMalformedV2SignatureIsRefusedAsMissingHeaders(String signature) {
        assertEquals(Refusal.MISSING_HEADERS, command("PUT", PUT_A, signature, BODY), signature);
    }

    @Test
    void thePreviousSecretSignsV2Too() {
        String byPrevious = CommandSignature.signV2("control-secret-previous-9876543210", Direction.COMMAND, "PUT", PUT_A,
                TS, NONCE, BODY);
        assertNull(CommandSignature.check(List.of(SECRET, "control-secret-previous-9876543210"), Direction.COMMAND,
                new SignedRequest("PUT", PUT_A, TS, NONCE, byPrevious, BODY), NOW, 300, false));
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", PUT_A, byPrevious, BODY));
    }

    @Test
    void theTargetOfAUriIsItsRawPathAndQuery() {
        assertEquals("/control/tenants/a", CommandSignature.target(URI.create("http://h:8080/control/tenants/a")));
        assertEquals("/", CommandSignature.target(URI.create("http://h:8080")));
        assertEquals("/p/dead-letters?from=2000-01-01T00%3A00%3A00Z&limit=1",
                CommandSignature.target(URI.create("https://h/p/dead-letters?from=2000-01-01T00%3A00%3A00Z&limit=1")));
        assertEquals("/buffer/usage", CommandSignature.target(URI.create("https://cp.example.com/buffer/usage")));
    }

    @Test
    void nothingUnsignableIsSigned() {
        assertThrows(IllegalArgumentException.class, () -> sign(Direction.COMMAND, "PUT", "/a\nb", BODY));
        assertThrows(IllegalArgumentException.class, () -> sign(Direction.COMMAND, "PUT", "/a b", BODY));
        assertThrows(IllegalArgumentException.class, () -> sign(Direction.COMMAND, "PUT", "control", BODY));
        assertThrows(IllegalArgumentException.class, () -> sign(Direction.COMMAND, "put", PUT_A, BODY));
        assertEquals(Refusal.BAD_SIGNATURE, command("PUT", "/a\nb", "v2=" + "A".repeat(43), BODY));
    }
}
