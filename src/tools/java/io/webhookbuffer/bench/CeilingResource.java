package io.webhookbuffer.bench;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.common.annotation.NonBlocking;

/**
 * {@code POST /bench/ceiling}: the HTTP ceiling for the benchmark. It reads the body like ingest does and answers
 * 202 with no other work, on the event loop like ingest, so the benchmark can print ingest's rate as a share of what
 * this server could answer at all. When {@code buffer.bench.ceiling-endpoint} is off (the default) it answers 404,
 * as an unknown path would. Its 202 means nothing was stored: it is never on the {@code /webhook} path.
 */
@Path("/bench/ceiling")
public class CeilingResource {

    private final boolean enabled;

    public CeilingResource(BenchConfig config) {
        this.enabled = config.ceilingEndpoint();
    }

    @POST
    @NonBlocking
    public RestResponse<Void> accept(byte[] body) {
        return RestResponse.status(enabled ? RestResponse.Status.ACCEPTED : RestResponse.Status.NOT_FOUND);
    }
}
