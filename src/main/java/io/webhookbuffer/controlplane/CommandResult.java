package io.webhookbuffer.controlplane;

/**
 * What a state-changing command did: the tenant as it now is, and {@code replay} = true when the state was already
 * so and nothing changed (the same command sent twice answers the same, the second time with replay).
 */
record CommandResult(TenantView tenant, boolean replay) {
}
