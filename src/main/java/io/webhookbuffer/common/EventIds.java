package io.webhookbuffer.common;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * The form of an event id the signature does not cover, bound to its body: {@code <provider id>:<the first 32 hex
 * digits of sha256(body)>} (docs/providers.md "Unsigned ids are bound to the body"). The ingress builds it; an origin, the demo
 * origin among them, splits it to get the provider's id back.
 *
 * <p>Where a provider's own retry of one event changes a field of the body it signs (its send time: Linear's
 * {@code webhookTimestamp}), that field is a <em>volatile</em> one and the hash leaves its value out
 * ({@link #bodyDigest}), so that the retry gets the same key while every other byte of the body stays bound.
 */
public final class EventIds {

    /** 128 bits of the body's SHA-256. */
    public static final int BINDING_HEX_DIGITS = 32;
    /** The longest provider id kept as sent. */
    public static final int MAX_LENGTH = 200;

    private EventIds() {
    }

    /**
     * A provider's id as the dedupe key holds it: as sent, or {@code sha256:<hex>} of it when it is longer than
     * {@link #MAX_LENGTH} characters or not storable as text (the ingress and the event finder agree on it).
     */
    public static String storable(String providerId) {
        return providerId.length() > MAX_LENGTH || !Utf8.storableAsText(providerId)
                // For a valid string these are its UTF-8 bytes: the keys of long ids stored before are unchanged.
                ? "sha256:" + HexFormat.of().formatHex(Hmac.sha256(Utf8.losslessBytes(providerId)))
                : providerId;
    }

    private static final JsonFactory JSON = new JsonFactory();

    /** {@code id} bound to {@code body}. */
    public static String bind(String id, byte[] body) {
        return bind(id, body, List.of());
    }

    /** {@code id} bound to {@code body} without the values of its volatile fields ({@link #bodyDigest}). */
    public static String bind(String id, byte[] body, List<String> volatileFields) {
        return id + ':' + HexFormat.of().formatHex(bodyDigest(body, volatileFields)).substring(0, BINDING_HEX_DIGITS);
    }

    /**
     * The SHA-256 of {@code body}, or, when the provider names volatile fields and the body is one complete JSON object
     * that has some of them at its top level, of the body without each such field's value and what follows it up to
     * the next field's name (or the closing brace): {@code {"a":1,"ts":5,"b":2}} is hashed as {@code {"a":1,"ts":"b":2}}.
     * The field's name stays, so the rest of the body is bound exactly as sent; nothing is re-serialised. It costs
     * one streaming parse of the body (no tree), and only for a provider that names volatile fields.
     */
    public static byte[] bodyDigest(byte[] body, List<String> volatileFields) {
        int[] cuts = volatileFields.isEmpty() ? null : volatileSpans(body, volatileFields);
        return cuts == null ? Hmac.sha256(body) : Hmac.sha256Outside(body, cuts);
    }

    /**
     * Where the values of the top-level volatile fields lie: start and end offsets in order; null when there is none
     * or the body is not one complete JSON object (then the whole body is hashed).
     */
    private static int[] volatileSpans(byte[] body, List<String> fields) {
        if (body.length == 0) {
            return null;
        }
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            List<Integer> cuts = new ArrayList<>();
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                // A cut is still open: it ends where this field's name begins.
                endOpenCut(cuts, parser);
                boolean matched = fields.contains(parser.currentName());
                parser.nextToken();
                if (matched) {
                    cuts.add(offset(parser));
                }
                parser.skipChildren();
            }
            if (token != JsonToken.END_OBJECT) {
                return null;
            }
            endOpenCut(cuts, parser);
            return cuts.isEmpty() || cuts.contains(-1) ? null : cuts.stream().mapToInt(Integer::intValue).toArray();
        } catch (IOException | RuntimeException e) {
            // Failure policy: a body that is not JSON has no volatile fields; its every byte is bound.
            return null;
        }
    }

    private static void endOpenCut(List<Integer> cuts, JsonParser parser) {
        if (cuts.size() % 2 == 1) {
            cuts.add(offset(parser));
        }
    }

    /** The byte offset where the parser's current token begins (-1 when unknown). */
    private static int offset(JsonParser parser) {
        long offset = parser.currentTokenLocation().getByteOffset();
        return offset < 0 || offset > Integer.MAX_VALUE ? -1 : (int) offset;
    }

    /** The provider's id in a delivered event id: what precedes a binding suffix, or the whole id when it has none. */
    public static String providerId(String eventId) {
        int colon = eventId.lastIndexOf(':');
        if (colon < 0 || eventId.length() - colon - 1 != BINDING_HEX_DIGITS) {
            return eventId;
        }
        for (int i = colon + 1; i < eventId.length(); i++) {
            char c = eventId.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return eventId;
            }
        }
        return eventId.substring(0, colon);
    }
}
