package io.webhookbuffer.queue;

import io.vertx.core.VertxException;
import io.vertx.sqlclient.DatabaseException;

/**
 * What a failed group commit means, read from the failure alone: refused for the data of some of its events (split
 * it: {@link GroupCommitWriter}'s failure policy), or its connection lost before PostgreSQL answered (retry it).
 */
final class CommitFailures {

    private static final String NOT_NULL_VIOLATION = "23502";

    private CommitFailures() {
    }

    /**
     * A refusal that belongs to the data of some event(s), not to the database or the connection: SQLSTATE class 22
     * (data exception: a U+0000 in text, 22021, or jsonb, 22P05; a value out of range or of the wrong form), 23
     * (integrity constraint violation: a CHECK, a unique key other than the dedupe key, whose conflict ON CONFLICT
     * handles; a foreign key) and 54 (program limit exceeded: a value too large for an index or jsonb). Splitting
     * finds the event that causes it; the others commit. Never split, because every event would be refused alike and
     * a sender told to stop would lose them all: 42 (a statement that does not match the schema) and 23502 (NOT
     * NULL: every value the ingress builds is non-null, so only a column the statement does not know, added by a
     * migration, can be null). Nor connection failures, class 08; 40 (serialization failure, deadlock: transient), 53
     * (out of disk, memory or connections), 57 (operator intervention, shutdown), 58/XX (system). Those fail the
     * commit with 503.
     */
    static boolean refusedForItsData(Throwable failure) {
        if (!(failure instanceof DatabaseException db) || db.getSqlState() == null) {
            return false;
        }
        String state = db.getSqlState();
        return state.startsWith("22") || state.startsWith("23") && !state.equals(NOT_NULL_VIOLATION)
                || state.startsWith("54");
    }

    /**
     * The connection failed under the commit before PostgreSQL answered it: closed or reset (a kept connection that
     * died while idle, a PostgreSQL restart, a network cut), not established, or ended by PostgreSQL itself (class 08,
     * and 57P01..57P05: shutdown, crash, start-up, idle-session timeout). Not: any other answer from PostgreSQL, which
     * is the statement's own outcome, and not a fault of ours (a RuntimeException other than Vert.x's), which would
     * fail again.
     */
    static boolean lostConnection(Throwable failure) {
        if (failure instanceof DatabaseException db) {
            String state = db.getSqlState();
            return state != null && (state.startsWith("08") || state.startsWith("57P0"));
        }
        return !(failure instanceof RuntimeException) || failure instanceof VertxException;
    }
}
