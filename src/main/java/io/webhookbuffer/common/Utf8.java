package io.webhookbuffer.common;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/** Strict UTF-8: a body is sent as text only when its bytes decode without loss. */
public final class Utf8 {

    private Utf8() {
    }

    /**
     * Puts the body the way the contract carries it: {@code rawBody} as text when the bytes are valid UTF-8, else
     * {@code rawBodyBase64} with the exact bytes.
     */
    public static void putRawBody(Map<String, Object> target, byte[] body) {
        String text = decodeOrNull(body);
        if (text != null) {
            target.put("rawBody", text);
        } else {
            target.put("rawBodyBase64", Base64.getEncoder().encodeToString(body));
        }
    }

    /** The text, or null when the bytes are not valid UTF-8 (the caller then sends base64). */
    public static String decodeOrNull(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
