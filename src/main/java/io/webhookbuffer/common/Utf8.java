package io.webhookbuffer.common;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * Strict UTF-8: a body is sent as text only when its bytes decode without loss; a string is stored as PostgreSQL text
 * only when it can be stored without loss.
 */
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

    /**
     * Whether PostgreSQL text can hold the string exactly. It holds any valid UTF-8 except U+0000 (refused: SQLSTATE
     * 22021, or 22P05 inside jsonb); an unpaired surrogate has no UTF-8 form at all (the client would silently send
     * {@code ?} in its place, so two different strings would be stored as one).
     */
    public static boolean storableAsText(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The string's UTF-8 bytes, except that an unpaired surrogate is encoded as its own three bytes (as WTF-8 does)
     * instead of being replaced by {@code ?}: the same bytes as {@link String#getBytes} for every valid string, and
     * different bytes for different strings, so a hash over them tells every string apart.
     */
    public static byte[] losslessBytes(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
        s.codePoints().forEach(cp -> {
            if (cp < 0x80) {
                out.write(cp);
            } else if (cp < 0x800) {
                out.write(0xC0 | cp >> 6);
                out.write(0x80 | cp & 0x3F);
            } else if (cp < 0x10000) { // a lone surrogate (U+D800..U+DFFF) lands here, as three bytes
                out.write(0xE0 | cp >> 12);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            } else {
                out.write(0xF0 | cp >> 18);
                out.write(0x80 | cp >> 12 & 0x3F);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            }
        });
        return out.toByteArray();
    }
}
