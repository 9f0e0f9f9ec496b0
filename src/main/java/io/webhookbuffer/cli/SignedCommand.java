package io.webhookbuffer.cli;

import static io.webhookbuffer.cli.BufferCtl.DEFAULT_URL;
import static io.webhookbuffer.cli.BufferCtl.ERROR_ANSWER;
import static io.webhookbuffer.cli.BufferCtl.OK;
import static io.webhookbuffer.cli.BufferCtl.REFUSED;
import static io.webhookbuffer.cli.BufferCtl.UNREACHABLE;
import static io.webhookbuffer.cli.BufferCtl.USAGE;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.cli.BufferCtl.Connection;
import io.webhookbuffer.cli.BufferCtl.Context;
import io.webhookbuffer.common.UntrustedText;

import picocli.CommandLine.Mixin;

/**
 * A bufferctl command that sends one signed request and prints its answer: where the connection comes from (its own
 * options, then the global ones, then the environment), how an answer becomes output and an exit code.
 */
abstract class SignedCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A request's answer, or null and the exit code when there was none. */
    record Exchange(ControlApi.Answer answer, int code) {
    }

    @Mixin
    Connection connection;

    final Context context;
    private boolean json;

    SignedCommand(Context context) {
        this.context = context;
    }

    int send(String method, String path, String body) {
        Exchange exchange = exchange(method, path, body);
        return exchange.answer() == null ? exchange.code() : report(exchange.answer());
    }

    /** One signed request; its answer, or none and the exit code saying why (no secret, unreachable). */
    Exchange exchange(String method, String path, String body) {
        Connection global = context.global();
        String url = first(first(connection.url, global.url, null), context.env().get("BUFFERCTL_URL"), DEFAULT_URL);
        String secret = first(first(connection.secret, global.secret, null), context.env().get("BUFFERCTL_SECRET"),
                null);
        json = connection.json || global.json;
        if (secret == null || secret.isBlank()) {
            context.err().println("bufferctl: no control secret: set BUFFERCTL_SECRET (or --control-secret)");
            return new Exchange(null, USAGE);
        }
        try {
            return new Exchange(new ControlApi(url, secret, Duration.ofSeconds(10)).send(method, path, body), OK);
        } catch (IOException | IllegalArgumentException e) {
            context.err().println("bufferctl: cannot reach the buffer at " + url + ": " + e);
            return new Exchange(null, UNREACHABLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Exchange(null, UNREACHABLE);
        }
    }

    /** Prints the answer (or its error) and returns the exit code it means. */
    int report(ControlApi.Answer answer) {
        JsonNode body = parse(answer.body());
        if (answer.status() / 100 == 2) {
            if (json || body == null) {
                context.out().println(answer.body());
            } else {
                print(body, "");
            }
            return OK;
        }
        if (json) {
            context.out().println(answer.body());
        }
        String reason = body == null ? "" : body.path("reason").asText("");
        String detail = body == null ? answer.body() : body.path("detail").asText("");
        if (answer.status() == 401) {
            context.err().println("bufferctl: refused (" + reason + "): " + BufferCtl.explain(reason));
            return REFUSED;
        }
        context.err().println("bufferctl: the buffer answered " + answer.status()
                + (reason.isEmpty() ? "" : " (" + reason + ")") + (detail.isEmpty() ? "" : ": " + detail));
        return ERROR_ANSWER;
    }

    /**
     * One "key: value" line per field; lists of objects one line per item. Values are shown without control
     * characters or bidi controls ({@link UntrustedText}): an origin's error text must not drive the terminal.
     */
    private void print(JsonNode node, String indent) {
        if (!node.isObject()) {
            context.out().println(indent + UntrustedText.clean(node.toString()));
            return;
        }
        node.fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            if (value.isArray() && !value.isEmpty() && value.get(0).isObject()) {
                context.out().println(indent + field.getKey() + ":");
                value.forEach(item -> context.out().println(indent + "  - " + UntrustedText.clean(item.toString())));
            } else {
                String text = value.isTextual() ? value.asText() : value.toString();
                context.out().println(indent + field.getKey() + ": " + UntrustedText.clean(text));
            }
        });
    }

    /** Whether --json was given (known once {@link #exchange} ran). */
    boolean jsonOutput() {
        return json;
    }

    static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    static String tenantPath(String tenantId) {
        return "/control/tenants/" + encode(tenantId);
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String first(String a, String b, String fallback) {
        if (a != null && !a.isBlank()) {
            return a;
        }
        return b != null && !b.isBlank() ? b : fallback;
    }
}
