package io.webhookbuffer.secrets;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.testsupport.ThrowawayDatabaseResource;

/** A database of its own, left at V12 (secrets in clear) with two tenants, as an upgrade finds it. */
public class UpgradeFromV12Profile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(ThrowawayDatabaseResource.class,
                Map.of("name", "v12", "atVersion", "12")));
    }
}
