package io.webhookbuffer.database;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.SqlConnectOptions;

/**
 * Builds the reactive pool as Quarkus would (the same pool and connect options, from the same keys) and wraps it in a
 * {@link ConnectionPerQueryPool}. A credentials provider ({@code quarkus.datasource.credentials-provider}) is not supported
 * on this path: Quarkus hands a creator fixed connect options.
 */
@Singleton
public class DatabasePool implements PgPoolCreator {

    @Override
    @SuppressWarnings("deprecation") // Quarkus 3.33 casts a creator's pool to the deprecated PgPool
    public PgPool create(Input input) {
        List<SqlConnectOptions> databases = new ArrayList<>(input.pgConnectOptionsList());
        return new ConnectionPerQueryPool(PgBuilder.pool().with(input.poolOptions()).connectingTo(databases)
                .using(input.vertx()).build());
    }
}
