package io.webhookbuffer.queue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.IntFunction;

import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Tuple;

/** A batch of events as the parallel arrays the group-commit statement unnests ($1..$7). */
public final class BatchArrays {

    private BatchArrays() {
    }

    /** Events 0..n-1, read through {@code event}. */
    public static Tuple of(int n, IntFunction<IncomingEvent> event) {
        String[] tenants = new String[n];
        String[] ids = new String[n];
        Buffer[] bodies = new Buffer[n];
        String[] contentTypes = new String[n];
        String[] headers = new String[n];
        OffsetDateTime[] receivedAt = new OffsetDateTime[n];
        String[] traceParents = new String[n];
        for (int i = 0; i < n; i++) {
            IncomingEvent e = event.apply(i);
            tenants[i] = e.tenantId();
            ids[i] = e.eventId();
            bodies[i] = Buffer.buffer(e.body());
            contentTypes[i] = e.contentType();
            headers[i] = e.headersJson();
            receivedAt[i] = OffsetDateTime.ofInstant(Instant.ofEpochMilli(e.receivedAtMillis()), ZoneOffset.UTC);
            traceParents[i] = e.traceParent();
        }
        return Tuple.of(tenants, ids, bodies, contentTypes, headers, receivedAt).addArrayOfString(traceParents);
    }
}
