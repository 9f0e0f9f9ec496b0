#!/usr/bin/env python3
"""An OTLP/HTTP sink for measuring what tracing costs the buffer (docs/performance.md, "Tracing's cost").

Takes every POST (the exporter's protobuf ExportTraceServiceRequest on /v1/traces), reads it whole, counts the
requests and bytes, answers 200 with an empty body, and prints the counts when stopped (SIGTERM or Ctrl-C). It decodes
nothing: a collector's work is not the buffer's cost. Usage: bench/otlp-sink.py [port, default 4318]; point the buffer
at it with -Dquarkus.otel.exporter.otlp.traces.endpoint=http://127.0.0.1:4318
-Dquarkus.otel.exporter.otlp.traces.protocol=http/protobuf.
"""
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counts = {"requests": 0, "bytes": 0}


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        counts["requests"] += 1
        counts["bytes"] += length
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def stop(*_):
    print(f"otlp-sink: {counts['requests']} export requests, {counts['bytes']} bytes", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 4318
    ThreadingHTTPServer(("127.0.0.1", port), Sink).serve_forever()
