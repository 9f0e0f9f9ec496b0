package io.webhookbuffer.ingress;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.ActorConfig;

/**
 * {@code POST /webhook/{tenantId}} through RESTEasy ({@code buffer.ingress.direct-route=false}; by default
 * {@link DirectIngest} answers it from the gate's route and never gets here), and the 405 for every other method on
 * the path, either way. Answers 202 only after the event is committed; see README "Ingest answers" for
 * what a sender should do with each answer. It maps HTTP to answers and nothing more: {@link IngressGate} admitted the
 * tenant and the body, {@link IngestService} decides (verification, dedupe key, the tenant's actor), and this turns
 * the decision into the ingest contract's answer ({@link IngressResponses}) and reports it ({@link IngressListener}).
 * Non-blocking: the method returns at once and the answer is written when the tenant's actor decides (after the group
 * commit, for a new event).
 */
@Path("/webhook/{tenantId}")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookResource {

    private final IngestService ingest;
    private final long unavailableRetryAfter;
    private final ReceiveClock clock;
    private final IngressListener listener;
    private final RefusalLog refusals;

    public WebhookResource(IngestService ingest, ActorConfig actorConfig, ReceiveClock clock,
            IngressListener listener, RefusalLog refusals) {
        this.refusals = refusals;
        this.ingest = ingest;
        this.clock = clock;
        this.listener = listener;
        this.unavailableRetryAfter = actorConfig.unavailableRetryAfterSeconds();
    }

    /** The tenant and the body come from {@link IngressGate}, which read the body within the tenant's limits. */
    @POST
    public Uni<RestResponse<IngressReply>> ingest(HttpServerRequest request, RoutingContext routing) {
        long started = System.nanoTime();
        IngressGate.Admitted admitted = IngressGate.admitted(routing);
        if (admitted == null) {
            // Only the gate reads ingest bodies; a request it did not admit has none to offer.
            return Uni.createFrom().item(observed(IngressResponses.notFound(), started));
        }
        long receivedAt = clock.millis();
        return Uni.createFrom()
                .completionStage(() -> ingest.admit(admitted.tenant(), request::getHeader,
                        admitted.body(), receivedAt, admitted.checked(), admitted.length()))
                .map(IngressResponses::of)
                .onFailure().recoverWithItem(failure -> IngressResponses.unavailable(unavailableRetryAfter))
                .map(answer -> {
                    if (admitted.rehearsal()) {
                        return rest(answer);
                    }
                    refusals.record(admitted.tenant(), answer, request.headers().names(), admitted.length(),
                            request.remoteAddress());
                    return observed(answer, started);
                });
    }

    /** Reports the answer to the ingest metrics (the warm-up's rehearsal requests are not reported). */
    private RestResponse<IngressReply> observed(IngressAnswer answer, long started) {
        answer.reportTo(listener, started);
        return rest(answer);
    }

    @SuppressWarnings("unchecked")
    private static RestResponse<IngressReply> rest(IngressAnswer answer) {
        if (answer.text() != null && answer.text().isEmpty()) {
            // An answer without a body (Xero's), as the direct route writes it (AnswerWriter).
            return RestResponse.ResponseBuilder.<IngressReply>create(answer.status())
                    .header("Cache-Control", AnswerWriter.NO_STORE).build();
        }
        if (answer.text() != null) {
            // A handshake answered as text (Twitch's challenge), as the direct route writes it (AnswerWriter).
            return (RestResponse<IngressReply>) (RestResponse<?>) RestResponse.ResponseBuilder
                    .<Object>create(answer.status()).entity(answer.text()).type(AnswerWriter.TEXT_UTF8)
                    .header(AnswerWriter.NOSNIFF_HEADER, AnswerWriter.NOSNIFF)
                    .header("Cache-Control", AnswerWriter.NO_STORE).build();
        }
        RestResponse.ResponseBuilder<IngressReply> response = RestResponse.ResponseBuilder
                .<IngressReply>create(answer.status()).entity(answer.reply());
        if (answer.header() != null) {
            response.header(answer.header(), answer.value());
        }
        return response.build();
    }

    // Every other method on the ingest path: 405 with Allow: POST (JAX-RS would answer without the header).

    @GET
    public RestResponse<IngressReply> get() {
        return rest(IngressResponses.methodNotAllowed());
    }

    @PUT
    public RestResponse<IngressReply> put() {
        return rest(IngressResponses.methodNotAllowed());
    }

    @DELETE
    public RestResponse<IngressReply> delete() {
        return rest(IngressResponses.methodNotAllowed());
    }

    @PATCH
    public RestResponse<IngressReply> patch() {
        return rest(IngressResponses.methodNotAllowed());
    }

    @HEAD
    public RestResponse<IngressReply> head() {
        return rest(IngressResponses.methodNotAllowed());
    }

    @OPTIONS
    public RestResponse<IngressReply> options() {
        return rest(IngressResponses.methodNotAllowed());
    }
}
