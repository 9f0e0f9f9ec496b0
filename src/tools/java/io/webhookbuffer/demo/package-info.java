/**
 * Runnables for trying the buffer locally, outside the service: a demo origin. JDK and Jackson only; nothing in the
 * service depends on this package. It lives in src/tools: in the tests and the local build, never in the service's
 * artifact.
 */
package io.webhookbuffer.demo;
