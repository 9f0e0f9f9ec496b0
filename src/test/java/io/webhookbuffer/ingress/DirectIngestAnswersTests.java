package io.webhookbuffer.ingress;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The ingest answers with {@code buffer.ingress.direct-route=true} (the default): the gate's route answers. */
@QuarkusTest
@TestProfile(IngestAnswersProfile.Direct.class)
class DirectIngestAnswersTests extends IngestAnswersContract {
}
