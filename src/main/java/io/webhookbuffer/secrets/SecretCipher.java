package io.webhookbuffer.secrets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals and opens tenant secrets: AES-256-GCM (JDK {@code javax.crypto}), a fresh random 96-bit nonce per value, a
 * 128-bit tag. A sealed value is text, {@code v1:<key id>:<base64url(nonce | ciphertext | tag)>}, so it fits the
 * {@code text} and {@code text[]} columns and a dump shows which key it needs. The associated data binds the format,
 * the field and the tenant id: a value copied to another tenant's row, or from one field to another, does not open.
 * Thread-safe: each thread keeps its own {@link Cipher}.
 */
public final class SecretCipher {

    /** What a sealed value is; part of its associated data. */
    public enum Field {
        PROVIDER_SECRET("provider-secret"),
        ORIGIN_TOKEN("origin-token"),
        ORIGIN_SIGNING_SECRET("origin-signing-secret");

        private final String label;

        Field(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    static final String VERSION = "v1";
    private static final Pattern SEALED = Pattern.compile("^v1:[A-Za-z0-9_-]{1,32}:[A-Za-z0-9_-]{38,}$");
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ThreadLocal<Cipher> GCM = ThreadLocal.withInitial(SecretCipher::newCipher);

    private final Keyring keyring;

    public SecretCipher(Keyring keyring) {
        this.keyring = keyring;
    }

    public Keyring keyring() {
        return keyring;
    }

    public String activeKeyId() {
        return keyring.activeId();
    }

    /** {@code clear} sealed under the active key for this tenant and field. */
    public String seal(String clear, String tenantId, Field field) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        String keyId = keyring.activeId();
        try {
            Cipher cipher = GCM.get();
            cipher.init(Cipher.ENCRYPT_MODE, keyring.active(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(tenantId, field));
            byte[] sealed = cipher.doFinal(clear.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
            return VERSION + ":" + keyId + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused to seal a value for tenant '" + tenantId + "'", e);
        }
    }

    /** The clear value; a {@link SealedValueException} when it does not open for this tenant and field. */
    public String open(String sealed, String tenantId, Field field) {
        if (sealed == null || !SEALED.matcher(sealed).matches()) {
            throw new SealedValueException("tenant '" + tenantId + "': its " + field.label() + " is not a sealed value",
                    null);
        }
        String keyId = keyIdOf(sealed);
        SecretKey key = keyring.key(keyId);
        if (key == null) {
            throw new SealedValueException("tenant '" + tenantId + "': its " + field.label() + " is sealed under key '"
                    + keyId + "', which buffer.secrets.keys does not list " + keyring.ids(), keyId);
        }
        byte[] raw = Base64.getUrlDecoder().decode(sealed.substring(sealed.lastIndexOf(':') + 1));
        try {
            Cipher cipher = GCM.get();
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData(tenantId, field));
            byte[] clear = cipher.doFinal(raw, NONCE_BYTES, raw.length - NONCE_BYTES);
            return new String(clear, StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new SealedValueException("tenant '" + tenantId + "': its " + field.label() + " does not open under key '"
                    + keyId + "' (sealed for another tenant or field, under another key of that id, or damaged)", keyId);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused to open a value of tenant '" + tenantId + "'", e);
        }
    }

    public List<String> sealAll(List<String> clear, String tenantId, Field field) {
        List<String> out = new ArrayList<>(clear.size());
        clear.forEach(value -> out.add(seal(value, tenantId, field)));
        return out;
    }

    private List<String> openAll(List<String> sealed, String tenantId, Field field) {
        List<String> out = new ArrayList<>(sealed.size());
        sealed.forEach(value -> out.add(open(value, tenantId, field)));
        return out;
    }

    /** Null stays null: for the optional fields. */
    private String sealOrNull(String clear, String tenantId, Field field) {
        return clear == null ? null : seal(clear, tenantId, field);
    }

    private String openOrNull(String sealed, String tenantId, Field field) {
        return sealed == null ? null : open(sealed, tenantId, field);
    }

    /** A tenant's sealed secrets, opened; a {@link SealedValueException} when one of them does not open. */
    public TenantSecrets openTenant(String tenantId, TenantSecrets sealed) {
        return new TenantSecrets(openAll(sealed.providerSecrets(), tenantId, Field.PROVIDER_SECRET),
                openOrNull(sealed.originToken(), tenantId, Field.ORIGIN_TOKEN),
                openOrNull(sealed.originSigningSecret(), tenantId, Field.ORIGIN_SIGNING_SECRET));
    }

    /** A tenant's secrets sealed under the active key, each with a fresh nonce. */
    public TenantSecrets sealTenant(String tenantId, TenantSecrets clear) {
        return new TenantSecrets(sealAll(clear.providerSecrets(), tenantId, Field.PROVIDER_SECRET),
                sealOrNull(clear.originToken(), tenantId, Field.ORIGIN_TOKEN),
                sealOrNull(clear.originSigningSecret(), tenantId, Field.ORIGIN_SIGNING_SECRET));
    }

    /** The id of the key a sealed value names (the text between the first two colons). */
    public static String keyIdOf(String sealed) {
        int first = sealed.indexOf(':');
        int second = first < 0 ? -1 : sealed.indexOf(':', first + 1);
        return second < 0 ? "" : sealed.substring(first + 1, second);
    }

    /** The prefix every value sealed under the active key starts with. */
    public String activePrefix() {
        return VERSION + ":" + keyring.activeId() + ":";
    }

    private static byte[] associatedData(String tenantId, Field field) {
        return ("webhook-buffer:" + VERSION + ":" + field.label() + ":" + tenantId).getBytes(StandardCharsets.UTF_8);
    }

    private static Cipher newCipher() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM/NoPadding is not available in this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "SecretCipher[" + keyring + "]";
    }
}
