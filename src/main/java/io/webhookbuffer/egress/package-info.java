/**
 * Outbound HTTP to URLs that configuration or a tenant chose (origins, origin pulls, the control plane), and the
 * trust rules for origins: which hosts a tenant may name ({@link io.webhookbuffer.egress.HostPatterns}), which
 * addresses are never connected to unless allowed ({@link io.webhookbuffer.egress.AddressRanges}), checked on the
 * address actually connected to; no redirects; answers read up to a cap. May depend on: common.
 */
package io.webhookbuffer.egress;
