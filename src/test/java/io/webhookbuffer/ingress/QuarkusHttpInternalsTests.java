package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.quarkus.vertx.http.runtime.VertxHttpRecorder;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;

/**
 * What {@link QuarkusHttpInternals} takes from Quarkus is still there after an upgrade, and still means what we rely
 * on: no route of Quarkus's runs among ours or between Quarkus's first handlers and ours, the upload limit still runs
 * right after them, and the root handler is still a static {@code Handler<HttpServerRequest>}. (That it is set once the
 * server runs, and serves our ports, every test through the webhook port shows: EdgePortLoopsTests first.)
 */
class QuarkusHttpInternalsTests {

    @Test
    void ourRoutesRunInTheirOrderJustAheadOfQuarkussUploadLimit() {
        assertTrue(QuarkusHttpInternals.PORT_ORDER < QuarkusHttpInternals.REQUEST_ORDER);
        assertTrue(QuarkusHttpInternals.REQUEST_ORDER < QuarkusHttpInternals.HEAD_ORDER);
        assertTrue(QuarkusHttpInternals.HEAD_ORDER < QuarkusHttpInternals.BODY_ORDER);
        assertTrue(QuarkusHttpInternals.BODY_ORDER < QuarkusHttpInternals.UPLOAD_LIMIT);
        assertEquals(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT, QuarkusHttpInternals.UPLOAD_LIMIT);
    }

    /**
     * Every route order Quarkus names is before all of ours (its start time, access log, CORS, body handler...) or at
     * or after its upload limit (compression, the defaults): one that moved into our range would run among our gates,
     * before a request is bounded or after it was answered.
     */
    @Test
    void noRouteOfQuarkusRunsAmongOurs() throws IllegalAccessException {
        List<String> among = new ArrayList<>();
        int fields = 0;
        for (Field f : RouteConstants.class.getFields()) {
            if (f.getType() != int.class || !Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            fields++;
            int order = f.getInt(null);
            if (order >= QuarkusHttpInternals.PORT_ORDER && order < QuarkusHttpInternals.UPLOAD_LIMIT) {
                among.add(f.getName() + "=" + order);
            }
        }
        assertTrue(fields >= 10, "RouteConstants still names Quarkus's route orders: " + fields);
        assertEquals(List.of(), among, "Quarkus routes between our first route and the upload limit");
    }

    @Test
    void theRootHandlerIsStillAStaticHandlerOfRequests() throws NoSuchMethodException {
        Method root = VertxHttpRecorder.class.getMethod("getRootHandler");
        assertTrue(Modifier.isStatic(root.getModifiers()), "static");
        assertEquals(Handler.class, root.getReturnType());
        assertEquals(HttpServerRequest.class,
                ((ParameterizedType) root.getGenericReturnType()).getActualTypeArguments()[0]);
    }
}
