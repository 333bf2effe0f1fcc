"""The pod's liveness endpoint, asked over a raw socket: what the hostile benchmarks time their pod by."""
import socket
import sys
import time


def health(host, port, timeout, wrap=None):
    """One GET of liveness; the status code, or None when the pod did not answer in time. wrap: e.g. TLS."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw:
            s = wrap(raw) if wrap else raw
            s.settimeout(timeout)
            s.sendall(b"GET /platform/management/health/live HTTP/1.1\r\nHost: pod\r\nConnection: close\r\n\r\n")
            data = s.recv(64)
            return int(data.split()[1]) if data.startswith(b"HTTP/1.1 ") else None
    except OSError:
        return None


def await_up(host, port, wrap=None, within=60):
    """Waits until the pod answers 200; exits the benchmark when it never does."""
    deadline = time.monotonic() + within
    while health(host, port, 1.0, wrap) != 200:
        if time.monotonic() > deadline:
            sys.exit("the pod never answered 200")
        time.sleep(0.1)
