package io.webhookbuffer.controlplane;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.Signed;

/**
 * The seed's v1 format while {@code buffer.control.accept-v1} is true (the default): still accepted, with a
 * deprecation WARN at most once a minute, and still unable to tell one command from another: the defect v2 fixes.
 * The methods run in order: the first v1 command of this app must be the warning test's (PushReplayTests, which
 * shares the app, sends none that is accepted).
 */
@QuarkusTest
@TestProfile(AcceptV1Profile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class V1CompatibilityTests {

    private static String newId() {
        return "v1-" + UUID.randomUUID().toString().substring(0, 18);
    }

    @Test
    @Order(1)
    void aV1CommandIsAcceptedWithOneWarningAMinute() {
        String id = newId();
        List<String> warnings;
        try (CapturedLog log = CapturedLog.start(Level.WARNING)) {
            Signed.commandV1(tenant().json()).put("/control/tenants/" + id).then().statusCode(200);
            Signed.commandV1("").post("/control/tenants/" + id + "/pause").then().statusCode(200)
                    .body("paused", equalTo(true));
            warnings = log.errors().stream().filter(w -> w.contains("deprecated v1 format")).toList();
        }
        assertEquals(1, warnings.size(), "one WARN for two v1 commands within a minute: " + warnings);
        assertTrue(warnings.get(0).contains("buffer.control.accept-v1=false"), warnings.get(0));
        Signed.command("").post("/control/tenants/" + id + "/resume").then().statusCode(200);
    }

    /** The defect: a v1 PUT captured on its way to tenant a, sent to tenant b instead, provisions b. */
    @Test
    @Order(2)
    void aCapturedV1PutForOneTenantIsAcceptedForAnother() {
        String a = newId();
        String b = newId();
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = Signed.nonce();
        byte[] body = tenant().secrets("whsec-meant-for-a").json().getBytes(StandardCharsets.UTF_8);
        String capturedForA = Signed.v1(Signed.CONTROL_SECRET, ts, nonce, body);
        given().header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", capturedForA).contentType("application/json").body(body)
                .put("/control/tenants/" + b).then().statusCode(200).body("tenantId", equalTo(b));
    }

    @Test
    @Order(3)
    void v2IsAcceptedBesideV1() {
        Signed.command(tenant().json()).put("/control/tenants/" + newId()).then().statusCode(200);
    }

    /** The shell functions of docs/control-plane.md (v2 and v1) and the README (v2), as written, run with bash and openssl. */
    @Test
    @Order(4)
    void theDocumentedShellSigningWorks() throws Exception {
        assumeTrue(onPath("bash") && onPath("openssl") && onPath("curl"), "needs bash, openssl and curl");
        String docs = Files.readString(Path.of("docs/control-plane.md"), StandardCharsets.UTF_8);
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        String id = newId();
        String out = bash(function(docs, "signed") + function(docs, "signed_v1")
                + "signed PUT /control/tenants/" + id + " '{\"secrets\":[\"whsec_shell\"]}'\n"
                + "signed GET '/control/tenants/" + id + "/dead-letters?limit=1' ''\n"
                + "signed_v1 POST /control/tenants/" + id + "/pause ''\n");
        List<String> lines = out.lines().toList();
        assertEquals(3, lines.size(), out);
        assertTrue(lines.get(0).contains("\"tenantId\":\"" + id + "\""), lines.get(0));
        assertTrue(lines.get(1).contains("\"deadLetters\":[]"), lines.get(1));
        assertTrue(lines.get(2).contains("\"paused\":true"), lines.get(2));
        List<String> fromReadme = bash(function(readme, "signed")
                + "signed POST /control/tenants/" + id + "/resume ''\n").lines().toList();
        assertEquals(1, fromReadme.size(), fromReadme.toString());
        assertTrue(fromReadme.get(0).contains("\"paused\":false"), "the README's v2 function: " + fromReadme.get(0));
    }

    /** The definition of the shell function {@code name} in {@code text}, made to reach this app as the test secret. */
    private static String function(String text, String name) {
        Matcher m = Pattern.compile("(?ms)^" + Pattern.quote(name) + "\\(\\) \\{.*?^\\}$").matcher(text);
        assertTrue(m.find(), name + "() is documented");
        return m.group().replace("http://localhost:8080", "http://localhost:" + RestAssured.port) + "\n";
    }

    private static String bash(String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "set -eu\nCONTROL_SECRET='" + Signed.CONTROL_SECRET
                + "'\n" + script);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash finished");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static boolean onPath(String tool) throws Exception {
        return new ProcessBuilder("bash", "-c", "command -v " + tool).start().waitFor() == 0;
    }
}
