#!/usr/bin/env python3
"""Opens idle connections to a pod until it stops taking them, closes them, and times the first 200 after.

usage: exhaust.py HOST PORT PID [MAX_CONNECTIONS]
Prints: connections opened, descriptors the pod held at the peak, whether the listener survived, ms to the next 200.
"""
import os
import socket
import sys
import time

host, port, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 4000


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def get_health(timeout):
    """One GET; returns the status code or None when the pod did not answer."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"GET /platform/management/health/live HTTP/1.1\r\nHost: pod\r\nConnection: close\r\n\r\n")
            data = s.recv(64)
            return int(data.split()[1]) if data.startswith(b"HTTP/1.1 ") else None
    except OSError:
        return None


deadline = time.monotonic() + 60
while get_health(1.0) != 200:
    if time.monotonic() > deadline:
        sys.exit("the pod never answered 200")
    time.sleep(0.1)

held = []
peak = 0
for i in range(limit):
    try:
        s = socket.create_connection((host, port), timeout=2)
        held.append(s)
    except OSError:
        break
    if i % 50 == 0:
        peak = max(peak, descriptors(pid))
time.sleep(1.5)  # let the pod accept what the kernel queued (and fail, if accept runs out of descriptors)
peak = max(peak, descriptors(pid))
answered_while_full = get_health(1.0)
for s in held:
    s.close()
t0 = time.monotonic()
status = None
while time.monotonic() - t0 < 30:
    status = get_health(1.0)
    if status == 200:
        break
    time.sleep(0.05)
ms = (time.monotonic() - t0) * 1000
print(f"opened={len(held)} pod_descriptors_peak={peak} answer_while_full={answered_while_full} "
      f"next_status={status} ms_to_next_200={ms:.0f} pod_descriptors_after={descriptors(pid)}")
