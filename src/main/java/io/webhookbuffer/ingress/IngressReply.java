package io.webhookbuffer.ingress;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The JSON body of every ingest answer: {@code {"status": "...", "eventId": "...", "reason": "..."}}; a provider's
 * handshake is answered with only what it expects ({@code challenge}, or {@code plainToken} and
 * {@code encryptedToken}, or Discord's {@code type}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IngressReply(String status, String eventId, String reason, String challenge, String plainToken,
        String encryptedToken, Integer type) {

    public IngressReply(String status, String eventId, String reason) {
        this(status, eventId, reason, null, null, null, null);
    }

    public IngressReply(String status, String eventId, String reason, String challenge, String plainToken,
            String encryptedToken) {
        this(status, eventId, reason, challenge, plainToken, encryptedToken, null);
    }


    static IngressReply status(String status) {
        return new IngressReply(status, null, null);
    }
}
