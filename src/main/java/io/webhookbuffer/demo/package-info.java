/**
 * Runnables for trying the buffer locally, outside the service: a demo origin. JDK and Jackson only; nothing in the
 * service depends on this package.
 */
package io.webhookbuffer.demo;
