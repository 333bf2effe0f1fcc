#!/usr/bin/env python3
"""The local API the benchmark's flows fetch from: one JSON document, many threads. Loopback only."""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BODY = b'{"rates": [{"code": "EUR", "value": 1.1}, {"code": "USD", "value": 1.0}]}'


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


ThreadingHTTPServer((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()
