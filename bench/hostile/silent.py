#!/usr/bin/env python3
"""Fills a pod's connection cap with connections that send nothing, or only the first bytes of a TLS hello, keeps
them open, and times how long a health request then waits for an answer.

usage: silent.py HOST PORT CONNECTIONS tls|plain
Prints: connections held, ms until a health request was answered 200 (or "never" within 60 s).
"""
import socket
import ssl
import sys
import time

import liveness

host, port, count, scheme = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE


wrap = context.wrap_socket if scheme == "tls" else None


def health(timeout):
    return liveness.health(host, port, timeout, wrap)


liveness.await_up(host, port, wrap)

held = []
for i in range(count):
    s = socket.create_connection((host, port), timeout=2)
    if scheme == "tls":
        s.sendall(b"\x16\x03\x01\x02")  # a handshake record's first bytes, then nothing
    held.append(s)
time.sleep(0.5)  # the pod accepted them all: its cap is full
t0 = time.monotonic()
answered = health(60.0)
ms = (time.monotonic() - t0) * 1000
print(f"held={len(held)} answered_after_ms={ms:.0f}" if answered == 200 else f"held={len(held)} answered=never")
for s in held:
    s.close()
