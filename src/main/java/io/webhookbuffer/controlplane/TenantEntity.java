package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * The tenants table as the control plane writes it (Panache: CRUD, not hot path). Ingress reads the same table with
 * explicit SQL through {@code TenantRepository}. Flyway owns the schema ({@code V1__core.sql}; the sealed columns came
 * with {@code V13__Seal_tenant_secrets}).
 */
@Entity
@Table(name = "tenants")
public class TenantEntity extends PanacheEntityBase {

    @Id
    @Column(name = "tenant_id")
    public String tenantId;

    public boolean active;

    /** Delivery paused by the control plane: ingest still buffers, no replica's drainer sends. */
    public boolean paused;

    public String provider;

    /**
     * When the tenant's events last became deliverable again after its delivery stopped (a resume, the end of a hold
     * of its origin); null when it never stopped. buffer.delivery.max-age counts from here for the events queued then.
     */
    @Column(name = "deliverable_since")
    public OffsetDateTime deliverableSince;

    /**
     * Signing secrets, current first, sealed ({@code SecretCipher}). {@link TenantStore} opens them into
     * {@link #secrets} when it loads the row and seals {@link #secrets} back when a command changes the tenant.
     */
    @Column(name = "secrets_encrypted", columnDefinition = "text[]")
    public String[] secretsEncrypted;

    /** The tenant's own origin's bearer token, sealed; null when it has none. */
    @Column(name = "origin_token_encrypted")
    public String originTokenEncrypted;

    /** The secret that signs batches to the tenant's own origin, sealed; null when it has none. */
    @Column(name = "origin_signing_secret_encrypted")
    public String originSigningSecretEncrypted;

    /** The signing secrets opened, current first: in memory only, never stored or serialised. */
    @Transient
    public String[] secrets;

    /** The origin credentials opened: in memory only. */
    @Transient
    public String originToken;

    @Transient
    public String originSigningSecret;

    @Column(name = "rate_limit")
    public int rateLimit;

    @Column(name = "rate_window_seconds")
    public int rateWindowSeconds;

    @Column(name = "max_body_bytes")
    public Integer maxBodyBytes;

    /** The tenant's queue quota in body bytes; null means {@code buffer.queue.max-queued-bytes-per-tenant}. */
    @Column(name = "max_queued_bytes")
    public Long maxQueuedBytes;

    /** What the tenant's sender does after a refusal ({@code never}, {@code briefly}, {@code long}); null: its provider's. */
    @Column(name = "sender_retries")
    public String senderRetries;

    /** Whether the sender's {@code traceparent} parents its ingest span (docs/operations.md "Tracing"). */
    @Column(name = "trust_trace_context")
    public boolean trustTraceContext;

    /** The origin's base URL for this tenant; null means {@code buffer.origin.base-url}. */
    @Column(name = "origin_url")
    public String originUrl;

    /** Most events per second delivered to the origin; null means no pace. */
    @Column(name = "delivery_rate")
    public Integer deliveryRate;

    /** The URL the provider signs (Square, Twilio), exactly as configured there; null for other providers. */
    @Column(name = "public_url")
    public String publicUrl;

    /** Override of the scheme's timestamp tolerance; null means the scheme's default. */
    @Column(name = "tolerance_seconds")
    public Integer toleranceSeconds;

    /** The tenant's own scheme ({@code provider} {@code custom}) as validated JSON; null otherwise. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "custom_scheme", columnDefinition = "jsonb")
    public String customScheme;

    /** Start of the first billing period (a whole hour); null: calendar periods. */
    @Column(name = "billing_anchor")
    public OffsetDateTime billingAnchor;

    /** monthly, weekly or daily. */
    @Column(name = "billing_cadence")
    public String billingCadence;

    @Column(name = "created_at", updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at")
    public OffsetDateTime updatedAt;

    @Override
    public String toString() {
        return "TenantEntity[" + tenantId + ", secrets hidden]";
    }
}
