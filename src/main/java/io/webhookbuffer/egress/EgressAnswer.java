package io.webhookbuffer.egress;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/**
 * An answer as read: its status and headers, and at most {@code OriginTrust.MAX_ANSWER_BYTES} of its body;
 * {@code cut} says the body was longer, the rest was not read and the connection was closed (judge such an answer by
 * its status only).
 */
public record EgressAnswer(int status, MultiMap headers, Buffer body, boolean cut) {

    public String header(String name) {
        return headers.get(name);
    }
}
