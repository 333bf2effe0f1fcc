#!/usr/bin/env python3
"""Clients that leave while their request waits on a silent upstream: how long each proxy keeps the upstream
connection after the client's close. Starts the silent upstream itself (it reads a request head, answers nothing,
notes when the proxy closes the connection); then, for each trial and each proxy in turn, a client sends
GET /hold/<id>, waits until the upstream has the request and then WAIT ms more, closes, and the time from its close to
the upstream's end of that connection is taken. Prints a Markdown table per WAIT. Loopback only.
  leaves.py ADDR UPSTREAM_PORT TRIALS WAIT_MS[,WAIT_MS...] NAME=PORT [NAME=PORT...]"""
import socket
import statistics
import sys
import threading
import time

ADDR, UP_PORT, TRIALS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
WAITS = [int(w) for w in sys.argv[4].split(",")]
PROXIES = [(p.split("=")[0], int(p.split("=")[1])) for p in sys.argv[5:]]
arrived = {}
ended = {}
lock = threading.Condition()


def hold(conn):
    with conn:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = conn.recv(4096)
            if not chunk:
                return
            head += chunk
        key = head.split(b" ")[1].decode().rsplit("/", 1)[-1]
        with lock:
            arrived[key] = time.monotonic()
            lock.notify_all()
        try:
            while conn.recv(4096):
                pass
        except OSError:
            pass
        with lock:
            ended[key] = time.monotonic()
            lock.notify_all()


def serve(listener):
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=hold, args=(conn,), daemon=True).start()


def wait_for(table, key, seconds):
    deadline = time.monotonic() + seconds
    with lock:
        while key not in table and time.monotonic() < deadline:
            lock.wait(deadline - time.monotonic())
        return table.get(key)


listener = socket.create_server((ADDR, UP_PORT), backlog=512)
threading.Thread(target=serve, args=(listener,), daemon=True).start()
for wait_ms in WAITS:
    held = {name: [] for name, _ in PROXIES}
    for trial in range(TRIALS):
        for name, port in PROXIES:
            key = f"{name}-{wait_ms}-{trial}"
            client = socket.create_connection((ADDR, port))
            client.sendall(f"GET /hold/{key} HTTP/1.1\r\nHost: api.example.test\r\n\r\n".encode())
            if wait_for(arrived, key, 10) is None:
                sys.exit(f"{name}: the request {key} never reached the upstream")
            time.sleep(wait_ms / 1000)
            closed = time.monotonic()
            client.close()
            end = wait_for(ended, key, 60)
            held[name].append(60_000.0 if end is None else (end - closed) * 1000)

    print(f"| client closes {wait_ms} ms after the upstream got its request | p50 ms | p90 ms | longest ms |")
    print("|---|---:|---:|---:|")
    for name, values in held.items():
        values.sort()
        p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
        print(f"| {name} | {statistics.median(values):.1f} | {p90:.1f} | {values[-1]:.1f} |")
    print()
