"""A power cut loses nothing acknowledged on the hall's SQLite (synchronous=FULL): results are
committed through Django with the hall's database settings onto a disk that forgets what was
not synced (lazy_disk.py, a FUSE filesystem), the disk is cut off (its process killed), and
every result acknowledged is found in what reached the folder beneath. The same writes at
synchronous=NORMAL (the demo's) lose them: the proof that the disk does forget.

Needs FUSE and Debian's python3-fusepy and libfuse2 for the system's Python (apt-get install
python3-fusepy libfuse2 fuse3), and root to unmount; skipped without them.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BASE_DIR = Path(__file__).resolve().parent.parent.parent
SYSTEM_PYTHON = "/usr/bin/python3"
RESULTS = 60

WRITER = """
import sys
from pathlib import Path

import django
from django.conf import settings

from config.settings.env import database_settings, hall_database_settings, read

folder, which, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
folder.mkdir(exist_ok=True)
config = (hall_database_settings if which == "hall" else database_settings)(read({}), folder)
settings.configure(DATABASES={"default": config}, INSTALLED_APPS=[], USE_TZ=True)
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("PRAGMA synchronous")
    print("synchronous", cursor.fetchone()[0], flush=True)
    cursor.execute("CREATE TABLE result (tables integer)")
for table in range(1, count + 1):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("INSERT INTO result VALUES (%s)", [table])
    print("stored", table, flush=True)  # the 2xx a phone would get
sys.stdin.read()  # the connection stays open until the power cut
"""


def can_fuse() -> str | None:
    """Why the lazy disk cannot run here, or None."""
    if sys.platform != "linux" or os.geteuid() != 0:
        return "needs Linux and root (to mount and unmount FUSE)"
    try:
        os.close(os.open("/dev/fuse", os.O_RDWR))
    except OSError as error:
        return f"/dev/fuse: {error}"
    if not Path(SYSTEM_PYTHON).exists():
        return f"no {SYSTEM_PYTHON}"
    found = subprocess.run([SYSTEM_PYTHON, "-c", "import fusepy"], capture_output=True)
    if found.returncode != 0 or shutil.which("umount") is None:
        return "needs python3-fusepy and libfuse2 for the system's Python"
    return None


def cut_power_after_results(tmp_path: Path, which: str) -> tuple[int, list[int], int]:
    """``RESULTS`` results committed on the lazy disk with the ``which`` settings, then the
    disk killed: the PRAGMA the writer saw, the tables acknowledged, and the results found."""
    folder, mountpoint = tmp_path / "folder", tmp_path / "mounted"
    folder.mkdir(parents=True)
    mountpoint.mkdir()
    disk = subprocess.Popen(
        [SYSTEM_PYTHON, str(BASE_DIR / "tests" / "tools" / "lazy_disk.py"), folder, mountpoint],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    writer = None
    try:
        deadline = time.monotonic() + 20
        while not os.path.ismount(mountpoint):
            assert disk.poll() is None and time.monotonic() < deadline, disk.stderr
            time.sleep(0.05)
        data_dir = mountpoint / "hall"
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(data_dir), which, str(RESULTS)],
            cwd=BASE_DIR,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        synchronous = int(writer.stdout.readline().split()[1])
        acknowledged = []
        for _ in range(RESULTS):
            said = writer.stdout.readline().split()
            assert said[:1] == ["stored"], said
            acknowledged.append(int(said[1]))
        disk.send_signal(signal.SIGKILL)  # the power cut: what was not synced is gone
        disk.wait(timeout=10)
    finally:
        if writer is not None:
            writer.kill()
            writer.wait(timeout=10)
        disk.kill()
        disk.wait(timeout=10)
        subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True)
    database = folder / "hall" / "db.sqlite3"
    with closing(sqlite3.connect(database)) as after:  # SQLite recovers its WAL here
        try:
            (found,) = after.execute("SELECT count(*) FROM result").fetchone()
        except sqlite3.OperationalError:  # not even the table reached the disk
            found = 0
    return synchronous, acknowledged, int(found)


def test_every_result_acknowledged_survives_a_power_cut_on_the_hall(tmp_path: Path) -> None:
    why = can_fuse()
    if why is not None:
        pytest.skip(why)
    synchronous, acknowledged, found = cut_power_after_results(tmp_path / "hall", "hall")
    assert synchronous == 2  # FULL
    assert acknowledged == list(range(1, RESULTS + 1))
    assert found == RESULTS
    # The demo's NORMAL on the same disk: the acknowledged results are lost (some or all).
    synchronous, acknowledged, found = cut_power_after_results(tmp_path / "demo", "demo")
    assert synchronous == 1 and len(acknowledged) == RESULTS
    assert found < RESULTS
