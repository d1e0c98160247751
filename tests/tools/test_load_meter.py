"""The hall night's CPU figures: the server's CPU seconds summed minute by minute."""

from __future__ import annotations

import os

from tools.load import CpuMeter


def test_cpu_seconds_are_summed_by_minute() -> None:
    meter = CpuMeter(None)
    # (seconds since the start, the server's CPU seconds so far)
    meter.samples = [
        (0.0, 10.0),
        (30.0, 13.0),
        (59.0, 16.0),
        (61.0, 17.0),
        (119.0, 20.0),
        (150.0, 26.5),
    ]
    assert meter.by_minute() == [6.0, 4.0, 6.5]


def test_it_reads_this_process_and_its_children() -> None:
    meter = CpuMeter(os.getpid())
    sum(i * i for i in range(200_000))  # some CPU time to read
    assert meter.read() > 0
