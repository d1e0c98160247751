"""``{% page_events table=… %}``: the attribute naming a live region's event stream
(``data-events-url``, drives/pagehub.py), or nothing where the server tells no page of changes
(the region polls, static/js/poll.js)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from drives import pagehub
from drives.models import Couple, Drive, Table

register = template.Library()


@register.simple_tag
def page_events(
    table: Table | None = None, couple: Couple | None = None, drive: Drive | None = None
) -> SafeString | str:
    """A table's page hears of its table and the drive's structure, a couple's page of its
    couple and the structure, the desk and the projector of the structure and every result."""
    if table is not None:
        topics = [pagehub.drive_topic(table.drive_id), f"table:{table.pk}"]
    elif couple is not None:
        topics = [pagehub.drive_topic(couple.drive_id), f"couple:{couple.pk}"]
    elif drive is not None:
        topics = [pagehub.drive_topic(drive.pk), pagehub.results_topic(drive.pk)]
    else:
        return ""
    url = pagehub.events_url(topics)
    return format_html(' data-events-url="{}"', url) if url else ""
