package io.webhookbuffer.delivery;

import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.egress.OriginTrust;
import io.webhookbuffer.tenant.TenantDirectory;

/**
 * Where a tenant's batch goes and how: the tenant's own origin (from the directory) or the deployment's
 * ({@code origin}), the trust rules an origin URL must pass ({@code trust}), and the client behind each origin's
 * breaker ({@code breakers}).
 */
record OriginRoute(TenantDirectory tenants, OriginConfig origin, OriginTrust trust, OriginBreakers breakers) {
}
