package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * A real OTLP/HTTP receiver for tests (what a collector's {@code otlphttp} receiver does): takes the exporter's
 * protobuf {@code ExportTraceServiceRequest}s on any path, decodes them, keeps every span and the text of every request,
 * and answers {@code 200} with an empty {@code ExportTraceServiceResponse}.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** A span as received: ids in lower-case hex (empty when absent), attributes as text. */
    public record Received(String name, Span.SpanKind kind, String traceId, String spanId, String parentSpanId,
            Map<String, String> attributes, List<Link> links, String statusMessage) {
    }

    /** A link as received. */
    public record Link(String traceId, String spanId, Map<String, String> attributes) {
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> paths = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every span received so far, in arrival order. */
    public List<Received> spans() {
        return List.copyOf(spans);
    }

    /** The text form of every export request received (every field, every attribute, every link). */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** The paths the exporter posted to. */
    public List<String> paths() {
        return List.copyOf(paths);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            paths.add(exchange.getRequestURI().getPath());
            byte[] body = read(exchange);
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
            requests.add(request.toString());
            for (ResourceSpans resource : request.getResourceSpansList()) {
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    scope.getSpansList().forEach(span -> spans.add(received(span)));
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                exchange.getResponseBody().write(answer);
            }
        }
    }

    private static byte[] read(HttpExchange exchange) throws IOException {
        InputStream in = exchange.getRequestBody();
        if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
            in = new GZIPInputStream(in);
        }
        return in.readAllBytes();
    }

    private static Received received(Span span) {
        List<Link> links = span.getLinksList().stream()
                .map(l -> new Link(hex(l.getTraceId().toByteArray()), hex(l.getSpanId().toByteArray()),
                        attributes(l.getAttributesList())))
                .toList();
        return new Received(span.getName(), span.getKind(), hex(span.getTraceId().toByteArray()),
                hex(span.getSpanId().toByteArray()), hex(span.getParentSpanId().toByteArray()),
                attributes(span.getAttributesList()), links, span.getStatus().getMessage());
    }

    private static Map<String, String> attributes(List<KeyValue> values) {
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : values) {
            out.put(kv.getKey(), text(kv.getValue()));
        }
        return out;
    }

    private static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> Long.toString(value.getIntValue());
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            default -> value.toString();
        };
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
