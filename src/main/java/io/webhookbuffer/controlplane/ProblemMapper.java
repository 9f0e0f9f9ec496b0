package io.webhookbuffer.controlplane;

import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The single place where control-plane failures become HTTP: problem+json, never a stack trace on the wire. */
public class ProblemMapper {

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return Response.status(e.problem().status()).type(Problem.MEDIA_TYPE).entity(e.problem()).build();
    }

    /** Anything but a deliberate refusal: a driver or Redis failure, answered by {@link #unexpected}. */
    static boolean isUnexpected(Throwable e) {
        return !(e instanceof ProblemException);
    }

    static Response unexpected(Throwable e) {
        // The message may come from a driver; it is logged here, and the caller only learns that it failed.
        LOG.errorf("control command failed: %s", e.toString());
        Problem problem = Problem.of(503, "Temporarily unavailable", "unavailable",
                "The command could not be completed; it changed nothing that a retry would not repair.");
        return Response.status(503).header("Retry-After", "5").type(Problem.MEDIA_TYPE).entity(problem).build();
    }
}
