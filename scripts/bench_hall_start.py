"""How long the organizer waits for ``make hall`` to answer: from ``fortyfives hall`` started
to its first answer on ``/livez``, with the server's CPU (the process and its children), for a
new data folder and then for a restart of the same folder.

    python scripts/bench_hall_start.py
    python scripts/bench_hall_start.py --runs 3 --project /tmp/older-checkout

``--project`` runs another checkout's ``fortyfives hall`` with this interpreter (to put the code
before a change beside the code after it). Each run's folder is new (``--data``: kept, under a
temporary folder by default); a restart is the same folder started again after a stop.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil

BASE_DIR = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_of(process: psutil.Process) -> float:
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            times = each.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def start_once(project: Path, data_dir: Path) -> tuple[float, float]:
    """(seconds until /livez answered, CPU seconds of the server until then)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_"))}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, "-m", "fortyfives", "hall", "--data-dir", str(data_dir)]
    command += ["--port", str(port), "--address", "127.0.0.1", "--no-browser"]
    began = time.monotonic()
    server = subprocess.Popen(
        command, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    watched = psutil.Process(server.pid)
    cpu = 0.0
    try:
        while True:
            if server.poll() is not None:
                raise SystemExit(f"the server stopped (exit {server.returncode})")
            cpu = max(cpu, cpu_of(watched))
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2):
                    waited = time.monotonic() - began
                    return waited, max(cpu, cpu_of(watched))
            except OSError:
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="new folders, each started twice")
    parser.add_argument("--project", type=Path, default=BASE_DIR, help="the checkout to start")
    parser.add_argument("--data", type=Path, help="where the runs' folders go (kept)")
    options = parser.parse_args()
    root = options.data or Path(tempfile.mkdtemp(prefix="hall-start-"))
    print(f"project {options.project}, folders in {root}")
    print("run | new folder: s to answer, CPU s | restart: s to answer, CPU s")
    for run in range(1, options.runs + 1):
        folder = root / f"run-{run}"
        first = start_once(options.project, folder)
        again = start_once(options.project, folder)
        print(f"{run} | {first[0]:.1f} s, {first[1]:.1f} s | {again[0]:.1f} s, {again[1]:.1f} s")


if __name__ == "__main__":
    main()
