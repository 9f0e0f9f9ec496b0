package io.webhookbuffer.apphalves;

import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;

/**
 * Half 1 of the test classes that boot the application, run by Surefire's {@code app-halves} execution in a JVM of
 * its own beside the other half (docs/testing.md "Running them"). Each test profile's classes are in one half, so its
 * application is built once; testsupport/AppHalvesTests keeps the two lists equal to
 * {@code src/test/boots-the-app.txt}.
 */
@Suite
@SelectClasses(names = {
        "io.webhookbuffer.bench.CeilingResourceTests",
        "io.webhookbuffer.controlplane.CommandBindingTests",
        "io.webhookbuffer.controlplane.ConcurrentCommandsTests",
        "io.webhookbuffer.controlplane.ControlBodyTests",
        "io.webhookbuffer.controlplane.EventLookupTests",
        "io.webhookbuffer.controlplane.ProviderConfigTests",
        "io.webhookbuffer.controlplane.RefusalsTests",
        "io.webhookbuffer.controlplane.SecretHygieneTests",
        "io.webhookbuffer.controlplane.TenantCommandTests",
        "io.webhookbuffer.controlplane.TenantSteeringTests",
        "io.webhookbuffer.ingress.AsanaHandshakeTests",
        "io.webhookbuffer.ingress.EarlyAnswerLingerTests",
        "io.webhookbuffer.ingress.EdgePortLoopsTests",
        "io.webhookbuffer.ingress.EventLoopTests",
        "io.webhookbuffer.ingress.FailedVerificationTests",
        "io.webhookbuffer.ingress.ForwardedClientTests",
        "io.webhookbuffer.ingress.IngestRouteTests",
        "io.webhookbuffer.ingress.IngressEdgeTests",
        "io.webhookbuffer.ingress.ProviderRetriesTests",
        "io.webhookbuffer.ingress.ProviderSchemesTests",
        "io.webhookbuffer.ingress.QueryHandshakesTests",
        "io.webhookbuffer.ingress.UnsignedIdsTests",
        "io.webhookbuffer.ops.ManifestServedTests",
        "io.webhookbuffer.ops.RetentionTests",
        "io.webhookbuffer.queue.BacklogSnapshotTests",
        "io.webhookbuffer.queue.CommitOrderTests",
        "io.webhookbuffer.queue.GroupCommitConnectionTests",
        "io.webhookbuffer.queue.GroupCommitIsolationTests",
        "io.webhookbuffer.queue.NoParallelQueryTests",
        "io.webhookbuffer.secrets.SealingKeyCheckTests",
        "io.webhookbuffer.status.StatusPageOffTests",
        "io.webhookbuffer.status.StatusRefusalsTests",
        "io.webhookbuffer.tenant.TenantChangePollTests",
        "io.webhookbuffer.tenant.TenantInvalidationTests",
        "io.webhookbuffer.tenant.TenantLookupsWithABusyPoolTests",
        "io.webhookbuffer.testsupport.TestClientConnectionsTests",
        "io.webhookbuffer.trace.TracingOffTests",
        "io.webhookbuffer.delivery.CircuitBreakerTests",
        "io.webhookbuffer.metrics.MetricsScenarioTests",
        "io.webhookbuffer.tenant.UnknownTenantFloodTests",
        "io.webhookbuffer.warmup.WarmupTests",
        "io.webhookbuffer.controlplane.PushReplayTests",
        "io.webhookbuffer.controlplane.V1CompatibilityTests",
        "io.webhookbuffer.tenant.OriginPullBulkheadTests",
        "io.webhookbuffer.ops.ManagementPortTests"})
public class AppHalf1Tests {
}
