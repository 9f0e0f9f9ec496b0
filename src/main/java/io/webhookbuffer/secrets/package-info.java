/**
 * Secrets at rest: every tenant provider secret and per-tenant origin credential is stored sealed with AES-256-GCM
 * (JDK crypto) under a key from {@code buffer.secrets.keys}, a fresh 96-bit nonce per value, the tenant id and the
 * value's field bound as associated data (a sealed value moved to another tenant or field does not open), and the
 * key's id in the value so keys rotate (every listed key opens, the active one seals). Opened values live only in
 * memory (the tenant cache): nothing on the ingest path decrypts per request. SealingKeyCheck refuses to start when a
 * key id names other bytes than the values were sealed under. May depend on: common.
 */
package io.webhookbuffer.secrets;
