#!/usr/bin/env python3
"""Hot-reload latency of the window (BENCHMARKS.md, "Hot reload").

Usage: reload_latency.py RIGSCOPE MODEL REPLACEMENT RUNS

Copies MODEL to a scratch folder, opens it in the window with the hidden test hooks (--exit-after-reload
--exit-after-frames 2 --screenshot), waits for the window's first line on stderr plus one second, then writes
REPLACEMENT's bytes over the file and measures the time until the window prints "rigscope: reloaded" (the
model rebuilt from the new bytes, before the next frame is drawn). Needs a display (Xvfb) and an adapter, as the
window tests do; set RIGSCOPE_CONFIG_DIR to a scratch folder so the user's settings stay untouched.
"""
import subprocess, time, sys, shutil, os, threading, queue, tempfile
SCRATCH = tempfile.mkdtemp(prefix="rigscope-reload-")
binary, src, alt, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ext = os.path.splitext(src)[1]
work = os.path.join(SCRATCH, "model" + ext)
res = []
for i in range(n):
    shutil.copy(src, work)
    p = subprocess.Popen([binary, work, "--exit-after-reload", "--exit-after-frames", "2", "--screenshot", os.path.join(SCRATCH, "shot.png")], stderr=subprocess.PIPE, text=True)
    q = queue.Queue()
    threading.Thread(target=lambda: [q.put((time.monotonic(), l)) for l in p.stderr], daemon=True).start()
    while True:
        t, l = q.get(timeout=60)
        if "window drawn by" in l: break
    time.sleep(1.0)
    data = open(alt, "rb").read()
    t0 = time.monotonic()
    with open(work, "wb") as f: f.write(data)
    while True:
        t, l = q.get(timeout=60)
        if "reloaded" in l: break
    res.append(t - t0)
    p.wait(timeout=60)
res.sort()
print(f"{os.path.basename(src)} -> {os.path.basename(alt)}: median {res[len(res)//2]*1000:.0f} ms, min {res[0]*1000:.0f}, max {res[-1]*1000:.0f} over {n}")
