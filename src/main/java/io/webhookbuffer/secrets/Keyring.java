package io.webhookbuffer.secrets;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.common.Hmac;

/**
 * The keys that open stored secrets, by id, and the active one that seals new values. Parsed from
 * {@code buffer.secrets.keys} ({@code <id>:<base64 of 32 bytes>}, comma-separated) and {@code buffer.secrets.active-key}.
 * {@link #toString()} names the ids only.
 */
public final class Keyring {

    /** A key id: short, and free of the separator of the sealed format. */
    public static final Pattern KEY_ID = Pattern.compile("^[A-Za-z0-9_-]{1,32}$");
    public static final int KEY_BYTES = 32;
    private static final byte[] CHECK_CONSTANT = "webhook-buffer:key-check:v1".getBytes(StandardCharsets.US_ASCII);
    static final String MISSING = "buffer.secrets.keys is required outside local mode: tenant provider secrets and "
            + "origin credentials are stored encrypted (AES-256-GCM) under it, and without a key the service cannot "
            + "read or write them. Set BUFFER_SECRETS_KEYS=<id>:<base64 of 32 random bytes>, e.g. "
            + "\"$(date +%Y-%m):$(openssl rand -base64 32)\" (docs/configuration.md, \"Secrets at rest\")";

    private final Map<String, SecretKey> keys;
    private final String activeId;

    private Keyring(Map<String, SecretKey> keys, String activeId) {
        this.keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        this.activeId = activeId;
    }

    public static Keyring of(SecretsConfig config) {
        return parse(config.keys().orElse(List.of()), config.activeKey());
    }

    /** The keyring, or an {@link IllegalStateException} naming every problem (never a key's value). */
    public static Keyring parse(List<String> entries, Optional<String> activeKey) {
        ConfigCheck check = new ConfigCheck();
        Map<String, SecretKey> keys = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i) != null && !entries.get(i).isBlank()) {
                add(i + 1, entries.get(i).strip(), keys, check);
            }
        }
        String active = activeKey.map(String::strip).filter(s -> !s.isEmpty()).orElse(null);
        check.require(!keys.isEmpty() || !check.problems().isEmpty(), MISSING);
        if (active == null) {
            check.require(keys.size() <= 1, "buffer.secrets.active-key must name the key that seals new values when "
                    + "buffer.secrets.keys lists several, was unset (listed: " + keys.keySet() + ")");
            active = keys.isEmpty() ? null : keys.keySet().iterator().next();
        } else {
            check.require(keys.containsKey(active), "buffer.secrets.active-key must be one of the ids in "
                    + "buffer.secrets.keys " + keys.keySet() + ", was " + active);
        }
        check.throwIfAny();
        return new Keyring(keys, active);
    }

    private static void add(int position, String entry, Map<String, SecretKey> keys, ConfigCheck check) {
        int colon = entry.indexOf(':');
        String id = colon < 0 ? "" : entry.substring(0, colon);
        if (!KEY_ID.matcher(id).matches()) {
            check.require(false, "each entry of buffer.secrets.keys must be <id>:<base64 key> with an id of 1 to 32 "
                    + "characters of A-Z a-z 0-9 _ -, entry #" + position + " is not");
            return;
        }
        byte[] key = decode(entry.substring(colon + 1).strip());
        check.require(key != null && key.length == KEY_BYTES, "key '" + id + "' of buffer.secrets.keys must be "
                + KEY_BYTES + " bytes in base64 (AES-256), was " + (key == null ? "not base64" : key.length + " bytes"));
        check.require(!keys.containsKey(id), "buffer.secrets.keys lists key id '" + id + "' twice");
        if (key != null && key.length == KEY_BYTES && !keys.containsKey(id)) {
            keys.put(id, new SecretKeySpec(key, "AES"));
        }
    }

    /** Standard or URL-safe base64, with or without padding; null when it is neither. */
    private static byte[] decode(String text) {
        try {
            return text.indexOf('-') >= 0 || text.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(text)
                    : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public String activeId() {
        return activeId;
    }

    SecretKey active() {
        return keys.get(activeId);
    }

    /** The key with this id, or null when it is not configured. */
    SecretKey key(String id) {
        return keys.get(id);
    }

    public Set<String> ids() {
        return keys.keySet();
    }

    /**
     * The key's check value: {@code v1:} and base64url of HMAC-SHA256 under the key of a public constant. The same
     * bytes give the same value, other bytes another, and it tells nothing of the key; stored, it lets a replica find
     * out at start-up that an id now names other bytes than those that sealed the stored values. Null when the id is
     * not configured.
     */
    public String checkValue(String id) {
        SecretKey key = keys.get(id);
        return key == null ? null : "v1:" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Hmac.hmacSha256(key.getEncoded(), CHECK_CONSTANT));
    }

    @Override
    public String toString() {
        return "Keyring[keys=" + keys.keySet() + ", active=" + activeId + "]";
    }
}
