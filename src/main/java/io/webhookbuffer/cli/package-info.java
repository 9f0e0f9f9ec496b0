/**
 * The operator CLI ({@code bin/bufferctl}): a plain main, no Quarkus boot, that signs and sends control commands
 * with the JDK HTTP client. May depend on: controlplane (its signing and refusal reasons only), common.
 */
package io.webhookbuffer.cli;
