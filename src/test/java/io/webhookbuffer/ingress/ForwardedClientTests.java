package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.Signed;

/**
 * Behind a proxy, as the Kubernetes manifests configure it (every test application trusts the loopback as its proxy:
 * {@code %test.quarkus.http.proxy.*} in application.properties): a tenant's refusals name the client the trusted proxy
 * names in {@code X-Forwarded-For}, not the proxy, on the webhook port too (ingress.EdgePort hands requests to
 * Quarkus's root handler, which applies {@code quarkus.http.proxy.*}). Without those settings every refusal would name
 * the ingress controller's private address, and an SRE could not tell the senders apart.
 */
@QuarkusTest
class ForwardedClientTests {

    private static final String BAD = "00".repeat(32);

    @Test
    void aRefusalNamesTheClientTheProxyNamesAndNotTheProxy() {
        String tenant = tenant().provision();
        given().header("X-Signature", BAD).header("X-Forwarded-For", "203.0.113.7").body("{}")
                .post("/webhook/" + tenant).then().statusCode(401);
        given().header("X-Signature", BAD).body("{}").post("/webhook/" + tenant).then().statusCode(401);
        JsonPath refusals = refusals(tenant);
        assertEquals("127.0.0.1", refusals.getString("refusals[0].client"), "the proxy's own request, newest");
        assertEquals("203.0.113.7", refusals.getString("refusals[1].client"));
    }

    @Test
    void theWebhookPortTakesTheForwardedClientToo() throws IOException {
        String tenant = tenant().provision();
        String head = "POST /webhook/" + tenant + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 198.51.100.4\r\n"
                + "X-Signature: " + BAD + "\r\nContent-Length: 2\r\n\r\n{}";
        try (RawHttp http = RawHttp.open()) {
            http.send(head);
            assertEquals(401, http.answer(Duration.ofSeconds(10)).status());
        }
        assertEquals("198.51.100.4", refusals(tenant).getString("refusals[0].client"));
    }

    /**
     * Quarkus's forwarded-header parsing rewrites the Host header to one line before any route runs; the head is
     * judged as it was sent, so two Host lines, or a blank one beside a good one, are still refused at once (RFC 9112
     * section 3.2), and so is a head with none, before the body is awaited and whatever a trusted proxy adds.
     */
    @Test
    void hostLinesAreJudgedAsSentBehindAProxy() throws IOException {
        String tenant = tenant().provision();
        for (String[] hosts : new String[][] {{"Host: 127.0.0.1", "Host: 127.0.0.2"}, {"Host: 127.0.0.1", "Host: "},
                {"Host: 127.0.0.1", "X-Forwarded-Host: example.com", "Host: 127.0.0.1"}, {"X-Forwarded-Host: example.com"}}) {
            try (RawHttp http = RawHttp.open()) {
                String[] head = Arrays.copyOf(hosts, hosts.length + 1);
                head[hosts.length] = "Content-Length: 2";
                http.send(RawHttp.head("POST /webhook/" + tenant, head));
                RawHttp.Answer answer = http.answer(Duration.ofSeconds(5));
                assertEquals(400, answer.status(), String.join(" / ", hosts));
                assertTrue(answer.body().contains("\"invalid_host\""), answer.body());
            }
        }
    }

    private static JsonPath refusals(String tenant) {
        return Signed.command("").get("/control/tenants/" + tenant + "/refusals").then().statusCode(200).extract()
                .jsonPath();
    }
}
