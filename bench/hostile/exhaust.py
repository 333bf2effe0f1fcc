#!/usr/bin/env python3
"""Opens idle connections to a pod until it stops taking them, closes them, and times the first 200 after.

usage: exhaust.py HOST PORT PID [MAX_CONNECTIONS]
Prints: connections opened, descriptors the pod held at the peak, whether the listener survived, ms to the next 200.
"""
import os
import socket
import sys
import time

import liveness

host, port, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 4000


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def get_health(timeout):
    return liveness.health(host, port, timeout)


liveness.await_up(host, port)

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
