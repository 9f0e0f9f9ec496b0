package io.webhookbuffer.ingress;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The JSON body of every ingest answer: {@code {"status": "...", "eventId": "...", "reason": "..."}}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IngressReply(String status, String eventId, String reason) {

    static IngressReply status(String status) {
        return new IngressReply(status, null, null);
    }
}
