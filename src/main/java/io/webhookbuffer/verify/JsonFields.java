package io.webhookbuffer.verify;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Reads one field of a JSON body with Jackson's streaming parser: it skips every other value without building it,
 * and never parses the whole document into a tree. Anything that is not a JSON object, or a field that is absent or
 * not a string or integer, reads as null; it never throws.
 *
 * <p>Of duplicate keys the last one wins, as Jackson's {@code ObjectMapper}, JavaScript's {@code JSON.parse}, Python's
 * {@code json} and Go's {@code encoding/json} read them: the origin's parser most likely among them, so the id we
 * dedupe on is the id the origin sees. So the object is read to its end (a later duplicate would win), and a
 * truncated object has no fields at all.
 */
final class JsonFields {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonFields() {
    }

    /** The text of the string or integer at {@code path} (object keys from the top level down), or null. */
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

    /**
     * The parser is just inside an object; reads it to its end and returns what the last {@code path[depth]} among
     * its fields holds.
     */
    private static String find(JsonParser parser, String[] path, int depth) throws IOException {
        String found = null;
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            boolean match = path[depth].equals(parser.currentName());
            JsonToken value = parser.nextToken();
            if (match && depth == path.length - 1) {
                found = value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NUMBER_INT ? parser.getText() : null;
            } else if (match && value == JsonToken.START_OBJECT) {
                found = find(parser, path, depth + 1);
                continue;
            } else if (match) {
                found = null;
            }
            parser.skipChildren();
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("not a complete JSON object");
        }
        return found;
    }
}
