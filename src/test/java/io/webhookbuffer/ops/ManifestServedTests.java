package io.webhookbuffer.ops;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The running app serves what deploy/ and k8s/ point at: the probe paths of the Deployment, the ServiceMonitor's
 * path, and, after traffic, every series the alert rules, dashboard and runbook name (the labelled top-N and
 * per-origin gauges exist only while a tenant backs up or a breaker is open, so for those the family must be known).
 */
@QuarkusTest
class ManifestServedTests {

    private static final Set<String> ONLY_WHILE_SOMETHING_IS_WRONG = Set.of(
            MetricNames.TENANT_BACKLOG_EVENTS.prometheus(), MetricNames.TENANT_BACKLOG_OLDEST_AGE.prometheus(),
            MetricNames.CIRCUIT_OPEN.prometheus());

    @Test
    void probesAndMetricsPathsAnswer() throws Exception {
        JsonNode container = Manifests.one(Manifests.K8S.resolve("deployment.yaml"))
                .at("/spec/template/spec/containers/0");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            String path = container.at("/" + probe + "/httpGet/path").asText();
            given().get(path).then().statusCode(200);
        }
        String metricsPath = Manifests.one(Manifests.K8S.resolve("servicemonitor.yaml")).at("/spec/endpoints/0/path")
                .asText();
        given().get(metricsPath).then().statusCode(200);
    }

    @Test
    void everyReferencedSeriesIsExportedAfterTraffic() throws Exception {
        String t = tenant().provision();
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"served\":1}").post("/webhook/" + t).then().statusCode(202);
        given().get("/q/health/ready").then().statusCode(200);
        Set<String> exported = Scrape.now().names();
        List<String> missing = new ArrayList<>();
        for (String series : Manifests.referencedMetrics()) {
            // A histogram named by its family (the runbook does) is exported as family_count, _sum, _bucket.
            boolean present = exported.contains(series) || exported.contains(series + "_count");
            if (!present && !ONLY_WHILE_SOMETHING_IS_WRONG.contains(Manifests.family(series))) {
                missing.add(series);
            }
        }
        assertTrue(missing.isEmpty(), "named in deploy/, k8s/ or the runbook but not at /q/metrics: " + missing);
    }
}
