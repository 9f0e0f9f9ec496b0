package io.webhookbuffer.secrets;

import java.util.List;

import io.webhookbuffer.common.OriginCredentials;

/**
 * Every secret of one tenant, in one form: its provider signing secrets (current first) and its own origin's token
 * and batch signing secret (null when it has none). Used both opened and sealed ({@link SecretCipher#openTenant},
 * {@link SecretCipher#sealTenant}); {@link #toString()} shows neither form.
 */
public record TenantSecrets(List<String> providerSecrets, String originToken, String originSigningSecret) {

    public TenantSecrets {
        providerSecrets = List.copyOf(providerSecrets);
    }

    public OriginCredentials originCredentials() {
        return new OriginCredentials(originToken, originSigningSecret);
    }

    @Override
    public String toString() {
        return "TenantSecrets[" + providerSecrets.size() + " provider secrets, origin token "
                + (originToken == null ? "none" : "hidden") + ", origin signing secret "
                + (originSigningSecret == null ? "none" : "hidden") + "]";
    }
}
