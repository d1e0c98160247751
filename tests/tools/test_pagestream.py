"""The load figures' pages follow their event streams as static/js/poll.js does: what the
stream's lines say (tools/pagestream.py's reader) and when a page asks for its fragment."""

from __future__ import annotations

from config.events import PING, RETRY_MS
from tools.pagestream import SAFETY_POLL, Event, EventReader, Region, drive_wide


def events_of(stream: bytes, reader: EventReader | None = None) -> list[Event]:
    reader = reader or EventReader()
    told = [reader.feed(line) for line in stream.decode().splitlines(keepends=True)]
    return [event for event in told if event is not None]


def test_the_reader_reads_what_the_server_sends() -> None:
    reader = EventReader()
    stream = (
        f"retry: {RETRY_MS}\nevent: ready\ndata: \n\n".encode()
        + PING
        + b"event: changed\ndata: couple:7 results:1 table:4\n\n"
    )
    assert events_of(stream, reader) == [
        Event("ready", ""),
        Event("ping", ""),
        Event("changed", "couple:7 results:1 table:4"),
    ]
    assert reader.retry == RETRY_MS / 1000


def test_comments_and_lines_without_data_tell_nothing() -> None:
    stream = b": keep-alive\r\n\r\nevent: changed\r\n\r\ndata: a\r\ndata: b\r\n\r\n"
    assert events_of(stream) == [Event("message", "a\nb")]


def test_a_change_of_the_whole_night_is_one_of_the_drive_or_of_everything() -> None:
    assert drive_wide("drive:3")
    assert drive_wide("*")
    assert drive_wide("* drive:3")
    assert drive_wide("drive:3 table:12")  # an advance, the table's own change with it
    assert not drive_wide("table:12")
    assert not drive_wide("couple:4 results:3 table:12")


def phone(every: float = 5.0, spread: bool = True, draw: float = 0.5) -> Region:
    region = Region(every, spread=spread, draw=lambda: draw)
    region.start(0.0)
    return region


def test_a_page_without_a_stream_polls_at_its_period() -> None:
    region = phone(every=6.0)
    assert (region.due, region.reason) == (6.0, "poll")
    assert region.asked(6.0) == "poll"
    region.answered(6.1)
    assert (region.due, region.reason) == (12.1, "poll")


def test_on_its_stream_a_new_page_waits_for_the_safety_poll() -> None:
    region = phone()
    region.ready(1.0)
    assert (region.due, region.reason) == (1.0 + SAFETY_POLL, "safety")
    region.asked(61.0)
    region.answered(62.0)
    assert (region.due, region.reason) == (62.0 + SAFETY_POLL, "safety")


def test_told_of_its_table_a_phone_asks_at_once() -> None:
    region = phone()
    region.ready(1.0)
    region.changed("couple:7 results:1 table:4", 10.0)
    assert (region.due, region.reason) == (10.0, "changed")


def test_told_of_the_whole_night_a_phone_waits_a_moment_the_desk_does_not() -> None:
    table_page = phone(spread=True, draw=0.75)
    desk = phone(every=3.0, spread=False, draw=0.75)
    for region in (table_page, desk):
        region.ready(1.0)
        region.changed("drive:1", 10.0)
    assert table_page.due == 13.75  # 0.75 of its 5 s period
    assert desk.due == 10.0


def test_told_while_it_asks_it_asks_again_once_answered_an_interval_on() -> None:
    region = phone()
    region.ready(1.0)
    region.changed("table:4", 10.0)
    region.asked(10.0)
    region.changed("table:4", 10.05)
    assert region.due == 10.0  # not scheduled while asking
    region.answered(10.1)
    assert (region.due, region.reason) == (15.0, "again")


def test_the_desk_told_of_every_result_asks_once_an_interval() -> None:
    """During the results' rush the desk hears of a result several times a second: it asks at
    once, then once per period, as it polled."""
    desk = phone(every=3.0, spread=False)
    desk.ready(1.0)
    desk.changed("results:1", 10.0)
    assert desk.due == 10.0
    desk.asked(10.0)
    desk.answered(10.2)
    for moment in (10.3, 10.6, 11.1, 12.4):
        desk.changed("results:1", moment)
        assert desk.due == 13.0
    desk.asked(13.0)
    desk.answered(13.1)
    desk.changed("results:1", 40.0)  # a quiet hall: at once
    assert desk.due == 40.0


def test_a_broken_stream_polls_then_catches_up_when_it_opens_again() -> None:
    region = phone(every=5.0, draw=0.25)
    region.ready(1.0)
    region.broken(20.0)
    assert (region.due, region.reason) == (25.0, "poll")
    region.asked(25.0)
    region.answered(25.1)
    assert region.due == 30.1  # polling while broken
    region.ready(27.0)
    assert (region.due, region.reason) == (28.25, "reopened")


def test_a_stream_refused_from_the_start_leaves_the_page_polling() -> None:
    region = phone(every=5.0)
    region.broken(0.2)
    assert (region.due, region.reason) == (5.0, "poll")
