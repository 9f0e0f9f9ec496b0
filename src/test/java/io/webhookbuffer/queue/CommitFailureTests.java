package io.webhookbuffer.queue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.vertx.core.VertxException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

/**
 * How the group commit reads a failure: which ones split the commit (the data of some event), which ones retry it
 * on another connection (the connection was lost before an answer), and which ones fail it with 503. Plain JUnit.
 */
class CommitFailureTests {

    private static PgException pg(String sqlState) {
        return new PgException("message", "ERROR", sqlState, null);
    }

    @ParameterizedTest
    @ValueSource(strings = { "22021", "22P05", "22P02", "22001", "23514", "23503", "23505", "54000" })
    void dataAndConstraintErrorsSplitTheCommitAndAreNeverRetried(String sqlState) {
        assertTrue(CommitFailures.refusedForItsData(pg(sqlState)), sqlState);
        assertFalse(CommitFailures.lostConnection(pg(sqlState)), sqlState);
    }

    @ParameterizedTest
    @ValueSource(strings = { "40001", "40P01", "53100", "53300", "57014", "42P01", "42703", "23502", "XX000", "58030",
            "25P02" })
    void otherAnswersOfPostgresFailTheCommit(String sqlState) {
        assertFalse(CommitFailures.refusedForItsData(pg(sqlState)), sqlState);
        assertFalse(CommitFailures.lostConnection(pg(sqlState)), sqlState);
    }

    @ParameterizedTest
    @ValueSource(strings = { "08006", "08003", "08P01", "57P01", "57P02", "57P03", "57P05" })
    void postgresEndingTheSessionIsALostConnection(String sqlState) {
        assertTrue(CommitFailures.lostConnection(pg(sqlState)), sqlState);
        assertFalse(CommitFailures.refusedForItsData(pg(sqlState)), sqlState);
    }

    @Test
    void aClosedOrResetConnectionIsLostAndNotData() {
        for (Throwable lost : new Throwable[] { ClosedConnectionException.INSTANCE,
                new NoStackTraceThrowable("Connection is not active now, current status: CLOSED"),
                new VertxException("Pending requests failed to be sent due to connection has been closed."),
                new IOException("Connection reset by peer"), new ConnectException("Connection refused") }) {
            assertTrue(CommitFailures.lostConnection(lost), lost.toString());
            assertFalse(CommitFailures.refusedForItsData(lost), lost.toString());
        }
    }

    @Test
    void ourOwnFaultIsNeitherRetriedNorSplit() {
        for (Throwable ours : new Throwable[] { new IllegalArgumentException("bad"), new NullPointerException() }) {
            assertFalse(CommitFailures.lostConnection(ours), ours.toString());
            assertFalse(CommitFailures.refusedForItsData(ours), ours.toString());
        }
    }
}
