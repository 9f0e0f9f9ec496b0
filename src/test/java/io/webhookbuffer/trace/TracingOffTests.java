package io.webhookbuffer.trace;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.function.Function;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.testsupport.Events;

/**
 * With no OTLP endpoint configured (the tests' default profile, as production's default), tracing is off: the SDK is
 * disabled, so the buffer starts no span (its hooks return the shared no-ops without reading their arguments) and no
 * span reaches an exporter (not even Quarkus's default, localhost:4317), and ingest works as before with no trace
 * context stored.
 */
@QuarkusTest
class TracingOffTests {

    @Inject
    Tracing tracing;

    @Inject
    OpenTelemetry openTelemetry;

    @Inject
    Pool pool;

    @Test
    void withNoEndpointNothingIsRecordedOrExportedAndIngestWorks() {
        assertEquals("true", ConfigProvider.getConfig().getValue("quarkus.otel.sdk.disabled", String.class));
        assertFalse(tracing.on());
        // Quarkus's disabled SDK: spans may be made (by a library) but go to no processor, so to no exporter.
        String provider = ((OpenTelemetrySdk) openTelemetry).getSdkTracerProvider().toString();
        assertTrue(provider.contains("spanProcessor=NoopSpanProcessor{}"), provider);

        // Off, every hook is the shared no-op and reads none of its arguments.
        Function<String, String> untouchable = x -> fail("an off hook read its arguments");
        assertSame(IngestTrace.OFF, tracing.ingest("t", "generic", true, untouchable, 0));
        assertSame(BatchTrace.OFF, tracing.commit(List.of("e"), untouchable));
        assertSame(BatchTrace.OFF, tracing.delivery("t", "generic", List.of("e"), untouchable));

        String t = tenant().provision();
        Events.post(t, "untraced-1").then().statusCode(202);
        String stored = pool.preparedQuery("SELECT trace_parent FROM event_queue WHERE tenant_id = $1")
                .execute(Tuple.of(t)).await().indefinitely().iterator().next().getString("trace_parent");
        assertNull(stored, "no trace context is stored");
    }
}
