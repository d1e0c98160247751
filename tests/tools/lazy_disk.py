"""A disk that forgets what was not synced, for the power-cut test (test_power_cut.py): a FUSE
filesystem over a folder that keeps each file's written bytes in memory until the file is
fsynced, then writes them to the folder and syncs it. Killing this process (SIGKILL) is the
power cut: whatever was written and not synced is gone, as from a disk's cache.

Run by the system's Python with Debian's python3-fusepy and libfuse2 (not the project's
virtual environment: it is no part of the product):

    /usr/bin/python3 tests/tools/lazy_disk.py FOLDER MOUNTPOINT

Files and folders are made, renamed and removed at once (SQLite syncs the data, not the
folder, in WAL mode); only the contents wait for an fsync. Single-threaded, for small files.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import fusepy  # type: ignore[import-not-found]  # Debian's python3-fusepy, outside the venv


class LazyDisk(fusepy.Operations):  # type: ignore[misc]
    def __init__(self, root: str) -> None:
        self.root = root
        self.unsynced: dict[str, bytearray] = {}  # a file's contents, written and not synced

    def _real(self, path: str) -> str:
        return os.path.join(self.root, path.lstrip("/"))

    def _contents(self, path: str) -> bytearray:
        if path not in self.unsynced:
            with open(self._real(path), "rb") as real:
                self.unsynced[path] = bytearray(real.read())
        return self.unsynced[path]

    def getattr(self, path: str, fh: Any = None) -> dict[str, Any]:
        found = os.lstat(self._real(path))
        names = ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size")
        attrs = {name: getattr(found, name) for name in names}
        attrs |= {n: getattr(found, n) for n in ("st_atime", "st_mtime", "st_ctime")}
        if path in self.unsynced:
            attrs["st_size"] = len(self.unsynced[path])
        return attrs

    def readdir(self, path: str, fh: Any) -> list[str]:
        return [".", "..", *os.listdir(self._real(path))]

    def mkdir(self, path: str, mode: int) -> None:
        os.mkdir(self._real(path), mode)

    def rmdir(self, path: str) -> None:
        os.rmdir(self._real(path))

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        os.close(os.open(self._real(path), os.O_CREAT | os.O_WRONLY, mode))
        self.unsynced[path] = bytearray()
        return 0

    def open(self, path: str, flags: int) -> int:
        if flags & os.O_TRUNC:
            self._contents(path).clear()
        return 0

    def read(self, path: str, size: int, offset: int, fh: Any) -> bytes:
        if path in self.unsynced:
            return bytes(self.unsynced[path][offset : offset + size])
        with open(self._real(path), "rb") as real:
            real.seek(offset)
            return real.read(size)

    def write(self, path: str, data: bytes, offset: int, fh: Any) -> int:
        contents = self._contents(path)
        if len(contents) < offset:
            contents.extend(bytes(offset - len(contents)))
        contents[offset : offset + len(data)] = data
        return len(data)

    def truncate(self, path: str, length: int, fh: Any = None) -> None:
        contents = self._contents(path)
        if len(contents) > length:
            del contents[length:]
        else:
            contents.extend(bytes(length - len(contents)))

    def fsync(self, path: str, datasync: int, fh: Any) -> int:
        contents = self.unsynced.pop(path, None)
        if contents is not None:
            descriptor = os.open(self._real(path), os.O_WRONLY | os.O_TRUNC)
            try:
                os.write(descriptor, contents)
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        return 0

    def flush(self, path: str, fh: Any) -> int:
        return 0  # a close is no sync

    def release(self, path: str, fh: Any) -> int:
        return 0

    def unlink(self, path: str) -> None:
        os.unlink(self._real(path))
        self.unsynced.pop(path, None)

    def rename(self, old: str, new: str) -> None:
        os.rename(self._real(old), self._real(new))
        if old in self.unsynced:
            self.unsynced[new] = self.unsynced.pop(old)

    def chmod(self, path: str, mode: int) -> None:
        os.chmod(self._real(path), mode)

    def chown(self, path: str, uid: int, gid: int) -> None:
        os.chown(self._real(path), uid, gid)

    def utimens(self, path: str, times: Any = None) -> None:
        os.utime(self._real(path), times)

    def access(self, path: str, mode: int) -> None:
        if not os.access(self._real(path), mode):
            raise fusepy.FuseOSError(13)

    def statfs(self, path: str) -> dict[str, Any]:
        found = os.statvfs(self._real(path))
        names = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files")
        return {name: getattr(found, name) for name in (*names, "f_flag", "f_frsize", "f_namemax")}


if __name__ == "__main__":
    folder, mountpoint = sys.argv[1:3]
    fusepy.FUSE(LazyDisk(folder), mountpoint, foreground=True, nothreads=True)
