package io.webhookbuffer.testsupport;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Before each {@code @QuarkusTest} method: every RestAssured request says {@code Connection: close} (unless the test
 * set its own), so the server ends the connection once it has answered, as it does for a provider's sender that sends
 * one webhook per connection, instead of keeping it for the idle timeout while the client waits for the garbage
 * collector (TestClientConnectionsTests says why it matters). A global filter, in the class loader the test runs in;
 * RestAssured's own {@code closeIdleConnectionsAfterEachResponse} is no substitute: it closed connections before
 * larger answers were read.
 */
public class RestAssuredConnections implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        if (RestAssured.filters().stream().noneMatch(CloseAfterAnswer.class::isInstance)) {
            RestAssured.filters(new CloseAfterAnswer());
        }
    }

    /** Adds {@code Connection: close} to a request that names no connection option. */
    static final class CloseAfterAnswer implements Filter {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                FilterContext context) {
            if (!request.getHeaders().hasHeaderWithName("Connection")) {
                request.header("Connection", "close");
            }
            return context.next(request, response);
        }
    }
}
