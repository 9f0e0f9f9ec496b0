package io.webhookbuffer.apphalves;

import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;

/**
 * Half 2 of the test classes that boot the application, run by Surefire's {@code app-halves} execution in a JVM of
 * its own beside the other half (docs/testing.md "Running them"). Each test profile's classes are in one half, so its
 * application is built once; testsupport/AppHalvesTests keeps the two lists equal to
 * {@code src/test/boots-the-app.txt}.
 */
@Suite
@SelectClasses(names = {
        "io.webhookbuffer.cli.BufferCtlTests",
        "io.webhookbuffer.controlplane.LifecycleOutboxTests",
        "io.webhookbuffer.controlplane.UsageReportTests",
        "io.webhookbuffer.secrets.SecretsAtRestTests",
        "io.webhookbuffer.status.StatusPageTests",
        "io.webhookbuffer.status.StatusSignInTests",
        "io.webhookbuffer.delivery.DeliveryTests",
        "io.webhookbuffer.delivery.DrainEvictionTests",
        "io.webhookbuffer.delivery.MaxAgeTests",
        "io.webhookbuffer.delivery.NeverRetryingSendersTests",
        "io.webhookbuffer.delivery.PauseAndDeactivateTests",
        "io.webhookbuffer.delivery.TenantOriginCredentialsTests",
        "io.webhookbuffer.queue.QueueDepthTests",
        "io.webhookbuffer.delivery.BisectionTests",
        "io.webhookbuffer.delivery.SweepBudgetTests",
        "io.webhookbuffer.fairness.NoisyNeighbourTests",
        "io.webhookbuffer.ingress.InFlightSharesTests",
        "io.webhookbuffer.ingress.SlowSendersTests",
        "io.webhookbuffer.trace.TracingTests",
        "io.webhookbuffer.health.HealthTests",
        "io.webhookbuffer.ingress.DatabaseOutageTests",
        "io.webhookbuffer.queue.CommitRecoveryTests",
        "io.webhookbuffer.ratelimit.shared.SharedWindowTests",
        "io.webhookbuffer.delivery.CompressedOutageTests",
        "io.webhookbuffer.delivery.SlowLaneTests",
        "io.webhookbuffer.egress.OriginTrustTests",
        "io.webhookbuffer.tenant.OriginPulledSenderRetriesTests",
        "io.webhookbuffer.queue.QueueQuotaTests",
        "io.webhookbuffer.secrets.SecretsRotationTests",
        "io.webhookbuffer.controlplane.UnconfiguredControlTests",
        "io.webhookbuffer.ingress.ConnectionCapTests",
        "io.webhookbuffer.ingress.IngestAnswersTests",
        "io.webhookbuffer.controlplane.PushSignatureTests",
        "io.webhookbuffer.secrets.SealMigrationTests"})
public class AppHalf2Tests {
}
