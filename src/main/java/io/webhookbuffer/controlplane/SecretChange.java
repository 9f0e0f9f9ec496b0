package io.webhookbuffer.controlplane;

import java.io.IOException;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The body of {@code POST /control/tenants/{id}/secrets}: exactly one of {@code {"add": "<secret>"}} or
 * {@code {"retire": "<fingerprint>"}}. A retired secret is named by its fingerprint, so rotating never requires
 * sending the old secret again. Messages never echo a secret.
 */
record SecretChange(String add, String retire) {

    private static final Pattern FINGERPRINT = Pattern.compile("^[0-9a-f]{12}$");

    static SecretChange parse(ObjectMapper json, byte[] body) {
        JsonNode root;
        try {
            root = body.length == 0 ? null : json.readTree(body);
        } catch (IOException e) {
            throw ProblemException.badRequest("The body is not valid JSON.");
        }
        if (root == null || !root.isObject() || root.size() != 1 || !(root.has("add") || root.has("retire"))) {
            throw ProblemException.badRequest("The body must be exactly one of {\"add\": \"<secret>\"} or "
                    + "{\"retire\": \"<fingerprint>\"}.");
        }
        JsonNode add = root.get("add");
        if (add != null) {
            if (!add.isTextual() || add.textValue().isBlank()
                    || add.textValue().length() > TenantCommand.MAX_SECRET_LENGTH) {
                throw ProblemException.badRequest("'add' must be a non-blank string of at most "
                        + TenantCommand.MAX_SECRET_LENGTH + " characters.");
            }
            return new SecretChange(add.textValue(), null);
        }
        JsonNode retire = root.get("retire");
        if (!retire.isTextual() || !FINGERPRINT.matcher(retire.textValue()).matches()) {
            throw ProblemException.badRequest("'retire' must be a secret's fingerprint: the 12 lowercase hex digits "
                    + "listed in the tenant's secretFingerprints.");
        }
        return new SecretChange(null, retire.textValue());
    }
}
