package io.webhookbuffer.verify;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Reads one field of a JSON body with Jackson's streaming parser: it stops at the field, skips every other value
 * without building it, and never parses the whole document into a tree. Anything that is not a JSON object, or a
 * field that is absent or not a string or integer, reads as null; it never throws.
 */
final class JsonFields {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonFields() {
    }

    /**
     * The text of the string or integer at {@code path} (object keys from the top level down), or null. With
     * duplicate keys the first one wins.
     */
    static String text(byte[] body, String... path) {
        if (body == null || body.length == 0) {
            return null;
        }
        try (JsonParser parser = FACTORY.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            return find(parser, path, 0);
        } catch (IOException | RuntimeException e) {
            // Failure policy: a body that is not JSON simply has no such field; the caller decides what that means.
            return null;
        }
    }

    /** The parser is just inside an object; finds path[depth] among its fields. */
    private static String find(JsonParser parser, String[] path, int depth) throws IOException {
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            boolean match = path[depth].equals(parser.currentName());
            JsonToken value = parser.nextToken();
            if (match) {
                if (depth == path.length - 1) {
                    return value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NUMBER_INT ? parser.getText()
                            : null;
                }
                return value == JsonToken.START_OBJECT ? find(parser, path, depth + 1) : null;
            }
            parser.skipChildren();
        }
        return null;
    }
}
