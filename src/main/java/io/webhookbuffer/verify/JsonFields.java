package io.webhookbuffer.verify;

import java.io.IOException;
import java.util.Arrays;

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

    /** Whether the body is one complete JSON object with a top-level field of that name (of any value). */
    static boolean has(byte[] body, String field) {
        if (body == null || body.length == 0) {
            return false;
        }
        try (JsonParser parser = FACTORY.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            boolean found = false;
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                found |= field.equals(parser.currentName());
                parser.nextToken();
                parser.skipChildren();
            }
            return token == JsonToken.END_OBJECT && found;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether the body is one complete JSON object whose top-level {@code field} (the last, if repeated) is an empty
     * array: Xero's intent-to-receive requests carry {@code "events": []}.
     */
    static boolean isEmptyArray(byte[] body, String field) {
        if (body == null || body.length == 0) {
            return false;
        }
        try (JsonParser parser = FACTORY.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            boolean empty = false;
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                boolean match = field.equals(parser.currentName());
                JsonToken value = parser.nextToken();
                if (match && value == JsonToken.START_ARRAY) {
                    empty = parser.nextToken() == JsonToken.END_ARRAY;
                    if (!empty) {
                        skipRestOfArray(parser);
                    }
                } else {
                    empty &= !match;
                    parser.skipChildren();
                }
            }
            return token == JsonToken.END_OBJECT && empty;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The parser is on an array's first element: skips it and the rest, up to the array's end. */
    private static void skipRestOfArray(JsonParser parser) throws IOException {
        for (JsonToken token = parser.currentToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token == null) {
                throw new IOException("not a complete JSON array");
            }
            parser.skipChildren();
        }
    }

    /**
     * The texts of several string or integer fields of one top-level object ({@code object.fields[i]}), in one pass
     * over the body; an absent field (or any field, when the body is not one complete JSON object) is null.
     */
    static String[] texts(byte[] body, String object, String... fields) {
        String[] found = new String[fields.length];
        if (body == null || body.length == 0) {
            return found;
        }
        try (JsonParser parser = FACTORY.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return found;
            }
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                boolean match = object.equals(parser.currentName());
                JsonToken value = parser.nextToken();
                if (match) {
                    // A later duplicate of the object wins whole, as the last duplicate key does in text().
                    Arrays.fill(found, null);
                }
                if (match && value == JsonToken.START_OBJECT) {
                    readFields(parser, fields, found);
                } else {
                    parser.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT) {
                return new String[fields.length];
            }
            return found;
        } catch (IOException | RuntimeException e) {
            return new String[fields.length];
        }
    }

    /** The parser is just inside an object: reads it to its end, the last of each named field winning. */
    private static void readFields(JsonParser parser, String[] fields, String[] found) throws IOException {
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            for (int i = 0; i < fields.length; i++) {
                if (fields[i].equals(name)) {
                    found[i] = value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NUMBER_INT ? parser.getText()
                            : null;
                }
            }
            parser.skipChildren();
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("not a complete JSON object");
        }
    }
}
