/**
 * Provider signature schemes (pure: JDK crypto only). Each scheme verifies a request's signature over
 * the raw body bytes against every active secret of the tenant and fails closed on any malformed input.
 * May depend on: common.
 */
package io.webhookbuffer.verify;
