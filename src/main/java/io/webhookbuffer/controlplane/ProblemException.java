package io.webhookbuffer.controlplane;

/** A refusal that becomes a problem+json answer. Carries no stack trace: it is an expected outcome, not a bug. */
public final class ProblemException extends RuntimeException {

    private final transient Problem problem;

    private ProblemException(Problem problem) {
        super(problem.reason(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    static ProblemException refused(Refusal refusal) {
        return new ProblemException(Problem.of(401, "Command refused", refusal.reason(), refusal.detail()));
    }

    static ProblemException badRequest(String detail) {
        return new ProblemException(Problem.of(400, "Invalid command", "invalid_request", detail));
    }

    /** A well-formed originUrl that the origin trust rules refuse (buffer.origin.allowed-hosts, refused addresses). */
    static ProblemException originNotAllowed(String detail) {
        return new ProblemException(Problem.of(400, "Origin not allowed", "origin_not_allowed", detail));
    }

    static ProblemException notFound(String detail) {
        return new ProblemException(Problem.of(404, "Not found", "not_found", detail));
    }

    static ProblemException conflict(String detail) {
        return new ProblemException(Problem.of(409, "Conflict", "conflict", detail));
    }

    /** A tenant whose stored secrets do not open under the configured keys. */
    static ProblemException unreadableSecrets(String detail) {
        return new ProblemException(Problem.of(409, "Secrets do not open", "secrets_unreadable", detail));
    }

    static ProblemException unavailable(String reason, String detail) {
        return new ProblemException(Problem.of(503, "Temporarily unavailable", reason, detail));
    }
}
