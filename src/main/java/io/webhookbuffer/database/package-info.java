/**
 * PostgreSQL client wiring: the reactive pool every capability shares, built from Quarkus's own
 * {@code quarkus.datasource.reactive.*} keys, with pool-level queries run on a connection of their own (see
 * {@link io.webhookbuffer.database.ConnectionPerQueryPool} for why). Depends on nothing of ours; nothing imports it (CDI wires
 * it in through Quarkus's {@code PgPoolCreator}).
 */
package io.webhookbuffer.database;
