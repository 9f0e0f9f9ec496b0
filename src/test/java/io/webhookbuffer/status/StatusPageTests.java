package io.webhookbuffer.status;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.controlplane.ControlPlaneProfile;
import io.webhookbuffer.queue.QueueSnapshots;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.HeadlessChromium;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/**
 * /status: protected by the bearer token (or the session a sign-in sets), and in a real headless Chromium, signed in
 * through its form, it shows the tenants sorted by what needs attention: a failing origin, then dead letters, then a
 * healthy backlog.
 */
@QuarkusTest
@TestProfile(ControlPlaneProfile.class)
class StatusPageTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    QueueSnapshots snapshots;

    @TestHTTPResource("/status")
    URL status;

    @Test
    void onlyTheTokenOrASessionOpensThePage() {
        given().redirects().follow(false).get("/status").then().statusCode(401)
                .header("WWW-Authenticate", containsString("Bearer"));
        given().header("Authorization", "Bearer wrong-token").get("/status").then().statusCode(401);
        given().cookie(StatusResource.COOKIE, ControlPlaneProfile.STATUS_TOKEN).get("/status").then().statusCode(401);

        given().header("Authorization", "Bearer " + ControlPlaneProfile.STATUS_TOKEN).get("/status").then().statusCode(200)
                .contentType(containsString("text/html")).header("Cache-Control", "no-store")
                .body(containsString("<meta http-equiv=\"refresh\" content=\"10\">"))
                .body(not(containsString("<script")));
        // The sign-in itself (a POSTed form, the cookie's attributes and expiry): StatusSignInTests.
    }

    @Test
    void eachTenantSaysWhatAnEventOverItsLimitGetsAndWhatItsSenderDoes() {
        String stores = tenant().provision(); // generic: its sender is taken not to retry (never)
        String refuses = tenant().senderRetries("long").provision();
        for (String t : List.of(stores, refuses)) {
            Signed.command("{}").post("/control/tenants/" + t + "/pause").then().statusCode(200); // stays in the backlog
            Events.accept(t, t + "-1");
        }
        await().atMost(PATIENCE).until(() -> snapshots.refresh().await().indefinitely().rows().stream()
                .filter(r -> r.tenantId().equals(stores) || r.tenantId().equals(refuses)).count() == 2);

        String page = given().header("Authorization", "Bearer " + ControlPlaneProfile.STATUS_TOKEN).get("/status").then()
                .statusCode(200).body(containsString(">over limit<")).extract().asString();
        assertTrue(rowOf(page, stores).contains("<td class=\"over-limit\">store (never)</td>"), rowOf(page, stores));
        assertTrue(rowOf(page, refuses).contains("<td class=\"over-limit\">refuse (long)</td>"), rowOf(page, refuses));
    }

    @Test
    void headlessChromiumSeesTenantsSortedByWhatNeedsAttention() throws Exception {
        Assumptions.assumeTrue(HeadlessChromium.path() != null,
                "chromium is not installed (apt-get install chromium; .ci/run installs it): browser test skipped");
        String failing = tenant().provision();
        String poisoned = tenant().provision();
        String healthy = tenant().provision();
        String held = tenant().provision();
        Signed.command("{}").post("/control/tenants/" + held + "/pause").then().statusCode(200);
        origin.answer(failing, batch -> new Answer(503, Map.of(), "", 0));
        origin.answer(poisoned, batch -> new Answer(422, Map.of(), "", 0));
        CountDownLatch hold = new CountDownLatch(1);
        origin.answer(healthy, batch -> { // held at the origin: its event stays queued, not failed
            try {
                hold.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Answer.ok();
        });
        try {
            showsTenantsByAttention(failing, poisoned, held, healthy);
        } finally {
            hold.countDown();
        }
    }

    private void showsTenantsByAttention(String failing, String poisoned, String held, String healthy)
            throws Exception {
        Events.accept(failing, "f-1");
        Events.accept(failing, "f-2");
        Events.accept(poisoned, "p-1");
        Events.accept(held, "x-1");
        Events.accept(healthy, "h-1");
        await().atMost(PATIENCE).until(() -> {
            var s = snapshots.refresh().await().indefinitely();
            var rows = s.rows();
            return rows.stream().anyMatch(r -> r.tenantId().equals(failing) && r.lastStatus() != null)
                    && rows.stream().anyMatch(r -> r.tenantId().equals(poisoned) && r.deadLetters() == 1)
                    && rows.stream().anyMatch(r -> r.tenantId().equals(held) && r.paused() && r.events() == 1)
                    && rows.stream().anyMatch(r -> r.tenantId().equals(healthy) && r.events() == 1);
        });

        // As a person signs in: the form /status shows a browser, the token typed in, Enter; then the page itself.
        Path png = Path.of("target/status-page.png");
        Files.deleteIfExists(png);
        String dom = HeadlessChromium.signIn(status.toString(), ControlPlaneProfile.STATUS_TOKEN, png);
        assertTrue(dom.contains("id=\"tenants-table\""), "the page rendered after the sign-in's redirect: " + dom);
        List<String> order = tenantOrder(dom);
        int f = order.indexOf(failing);
        int p = order.indexOf(poisoned);
        int x = order.indexOf(held);
        int h = order.indexOf(healthy);
        assertTrue(f >= 0 && p > f && x > p && h > x, "failing, dead letters, paused, then healthy: " + order);
        assertTrue(rowOf(dom, failing).contains("backing off") && rowOf(dom, failing).contains("HTTP 503"),
                rowOf(dom, failing));
        assertTrue(rowOf(dom, poisoned).contains("dead letters"), rowOf(dom, poisoned));
        assertTrue(rowOf(dom, held).contains(">paused<"), rowOf(dom, held));
        assertTrue(rowOf(dom, healthy).contains(">ok<"), rowOf(dom, healthy));

        assertTrue(Files.exists(png), "screenshot written");
        byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(new byte[] { (byte) 0x89, 'P', 'N', 'G' }, Arrays.copyOf(bytes, 4), "a PNG");
        assertTrue(bytes.length > 10_000, "a rendered page, not a blank image: " + bytes.length + " bytes");
    }

    private static List<String> tenantOrder(String dom) {
        Matcher m = Pattern.compile("data-tenant=\"([^\"]+)\"").matcher(dom);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    private static String rowOf(String dom, String tenantId) {
        int start = dom.indexOf("data-tenant=\"" + tenantId + "\"");
        return start < 0 ? "" : dom.substring(start, dom.indexOf("</tr>", start));
    }
}
