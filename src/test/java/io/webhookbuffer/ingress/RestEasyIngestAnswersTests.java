package io.webhookbuffer.ingress;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The same answers with {@code buffer.ingress.direct-route=false}: RESTEasy ({@link WebhookResource}) answers. */
@QuarkusTest
@TestProfile(IngestAnswersProfile.ThroughRestEasy.class)
class RestEasyIngestAnswersTests extends IngestAnswersContract {
}
