package io.webhookbuffer.verify;

import java.util.List;

import io.webhookbuffer.verify.SignatureScheme.KeyEncoding;

/**
 * Whether a tenant's secrets can be keys of its provider's scheme: a public key parses (SendGrid, Discord, a Standard
 * Webhooks {@code whpk_} key), a Standard Webhooks secret is base64. Checked at the tenant command, so a bad key is
 * refused there and not at the first event. Messages name the secret by its position, never its value.
 */
final class SecretKeyChecks {

    private SecretKeyChecks() {
    }

    /** Why one of the secrets cannot be a key of the scheme (a public key, a Standard Webhooks secret), or null. */
    static String problem(String provider, SignatureScheme scheme, List<String> secrets) {
        if (secrets == null) {
            return null;
        }
        String keyProblem = publicKeyProblem(provider, secrets);
        if (keyProblem != null || scheme == null || scheme.key() != KeyEncoding.WHSEC_BASE64) {
            return keyProblem;
        }
        for (int i = 0; i < secrets.size(); i++) {
            // A Standard Webhooks tenant may hold whpk_ public keys beside its whsec_ secrets (publicKeyProblem).
            if (!isWhpk(provider, secrets.get(i)) && isEmpty(SignatureText.whsecKey(secrets.get(i)))) {
                return "Secret #" + (i + 1) + " is not a Standard Webhooks secret ('whsec_' followed by base64, or"
                        + " 'whpk_' followed by base64 for an Ed25519 public key).";
            }
        }
        return null;
    }

    /**
     * Why a secret of a public-key scheme is not a usable key (null when every one is): each is parsed here, and
     * cached for the verifier, so a bad key is refused at the tenant command. Standard Webhooks takes {@code whpk_}
     * public keys beside {@code whsec_} secrets; its {@code whsk_} private key is refused by name.
     */
    private static String publicKeyProblem(String provider, List<String> secrets) {
        PublicKeys.Format format = keyFormat(provider);
        for (int i = 0; format != null && i < secrets.size(); i++) {
            String secret = secrets.get(i);
            if (Providers.STANDARD_WEBHOOKS.equals(provider) && secret.startsWith("whsk_")) {
                return "Secret #" + (i + 1) + " is a Standard Webhooks signing (private) key: give the public key"
                        + " ('whpk_...') instead, and keep the private key with the sender.";
            }
            String problem = Providers.STANDARD_WEBHOOKS.equals(provider) && !isWhpk(provider, secret) ? null
                    : PublicKeys.parse(format, secret).problem();
            if (problem != null) {
                return "Secret #" + (i + 1) + " of '" + provider + "' must be the provider's public verification key;"
                        + " it " + problem + ".";
            }
        }
        return null;
    }

    private static PublicKeys.Format keyFormat(String provider) {
        return switch (provider) {
            case Providers.SENDGRID -> PublicKeys.Format.P256_SPKI_BASE64;
            case Providers.DISCORD -> PublicKeys.Format.ED25519_HEX;
            case Providers.STANDARD_WEBHOOKS -> PublicKeys.Format.ED25519_WHPK;
            default -> null;
        };
    }

    private static boolean isWhpk(String provider, String secret) {
        return Providers.STANDARD_WEBHOOKS.equals(provider) && secret.startsWith(PublicKeys.WHPK);
    }

    private static boolean isEmpty(byte[] key) {
        return key == null || key.length == 0;
    }
}
