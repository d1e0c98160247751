"""A drive's printed document itself: its options checked, the data it shows and their version,
its PDF, and rendering it. ``scoring.printing.services`` asks for documents and keeps track of
them; the print task (``scoring.printing.tasks.render_document``) runs ``document_run`` here,
which renders a queued :class:`~scoring.models.Document` and keeps its PDF: safe to run twice (a
document already done from the same data is left alone), it saves its progress every few pages
and records a failure on the document instead of raising (``document_failed``, also used when
the task could not record it itself). ``document_render`` renders one here and now, without a
Document row (the command line).

The renderers (``scoring.printing.pdf``) and the bridge from the database
(``scoring.printing.data``) are imported when first used, through ``build_data``, ``version_of``
and ``render_pdf``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from drives.errors import ServiceError
from drives.models import Drive
from drives.services import SYSTEM, Actor, audit, tables_prepare
from scoring.models import Document
from scoring.printing.parts import part_of

logger = logging.getLogger(__name__)

KINDS: tuple[str, ...] = tuple(Document.Kind.values)
PAPERS: tuple[str, ...] = tuple(Document.Paper.values)
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
# Progress is saved every PROGRESS_EVERY pages (and at the last page).
PROGRESS_EVERY = 5

# Which options a document takes besides the paper.
TAKES_GAME = {"movement", "score-sheets"}
TAKES_COUPLE = {"punch-cards"}
TAKES_FILLED = {"punch-cards"}
# The documents printed for each table: before the night starts, the tables of its first game
# are set out first (``drives.services.tables_prepare``), so that they print before people
# arrive.
PER_TABLE = {"table-cards", "score-sheets"}


# --- the renderers, imported when first used ------------------------------------------------


def build_data(drive: Drive, kind: str, **options: Any) -> dict[str, Any]:
    from scoring.printing import data as print_data

    return print_data.build(drive, kind, **options)


def version_of(drive: Drive, kind: str, **options: Any) -> str:
    from scoring.printing import data as print_data

    return print_data.data_version(drive, kind, **options)


def render_pdf(
    kind: str,
    data: dict[str, Any],
    *,
    paper: str,
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """The PDF of ``kind`` drawn from ``data`` (``scoring.printing.pdf.render``). Safe to call from
    several threads of one process at once: a render changes no process-wide reportlab
    setting (each canvas writes its own streams Flate-compressed, without ASCII85)."""
    from scoring.printing import pdf

    return pdf.render(kind, data, paper=paper, progress=progress)


# --- options and the file -------------------------------------------------------------------


def option_number(value: Any, field: str, *, text: bool = True) -> int | None:
    """A game or couple number of a document's options (None: not given); its digits as text
    too (a page's form) unless ``text`` is False (a JSON body sends numbers as numbers)."""
    if value is None or (text and value == ""):
        return None
    if text and isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 10**9:
        return value
    raise ServiceError(
        f"bad_{field}",
        gettext("%(value)s is not a %(field)s number.") % {"value": f"{value!r}", "field": field},
        field=field,
    )


def document_options(
    drive: Drive,
    kind: Any,
    *,
    paper: Any = Document.Paper.LETTER,
    game: Any = None,
    couple: Any = None,
    filled: Any = False,
    base_url: Any = DEFAULT_BASE_URL,
) -> dict[str, Any]:
    """The options checked and made canonical (a movement sheet's game defaults to the game in
    play), as ``{"kind", "language", "paper", "game", "couple", "filled", "base_url"}`` (the
    language is the drive's, the hall's: the document is printed in it); a ``ServiceError`` (422)
    naming the option otherwise."""
    if kind not in KINDS:
        raise ServiceError(
            "bad_document",
            gettext("%(kind)s is not a document: use one of %(list)s.")
            % {"kind": f"{kind!r}", "list": ", ".join(KINDS)},
            field="document",
            allowed=list(KINDS),
        )
    if paper not in PAPERS:
        raise ServiceError(
            "bad_paper",
            gettext("%(paper)s is not a paper size: use letter or a4.") % {"paper": f"{paper!r}"},
            field="paper",
        )
    if not isinstance(filled, bool):
        raise ServiceError("bad_filled", gettext("filled must be true or false."), field="filled")
    if not isinstance(base_url, str) or not re.fullmatch(r"https?://[^\s]{1,180}", base_url):
        raise ServiceError(
            "bad_base_url", gettext("base_url must be an http(s) URL."), field="base_url"
        )
    game_n = option_number(game, "game")
    couple_n = option_number(couple, "couple")
    if game_n is not None and kind not in TAKES_GAME:
        raise ServiceError(
            "bad_game",
            gettext("Only the movement sheet and the score sheets take a game."),
            field="game",
        )
    if couple_n is not None and kind not in TAKES_COUPLE:
        raise ServiceError("bad_couple", gettext("Only punch cards take a couple."), field="couple")
    if filled and kind not in TAKES_FILLED:
        raise ServiceError("bad_filled", gettext("Only punch cards can be filled."), field="filled")
    if game_n is not None and game_n > drive.games:
        raise ServiceError(
            "bad_game",
            gettext("The drive has %(games)s games, not %(game_n)s.")
            % {"games": drive.games, "game_n": game_n},
            field="game",
        )
    if kind == Document.Kind.MOVEMENT:
        game_n = game_n or drive.current_game or None
        if game_n is None:
            raise ServiceError(
                "no_game",
                gettext("No game has started: the movement sheet needs one."),
                field="game",
            )
        if game_n > drive.current_game:
            raise ServiceError(
                "game_not_started",
                gettext("Game %(game_n)s has not started: its seating is not known yet.")
                % {"game_n": game_n},
                field="game",
            )
    if couple_n is not None and not drive.couples.filter(number=couple_n).exists():
        raise ServiceError(
            "bad_couple",
            gettext("There is no couple %(couple_n)s.") % {"couple_n": couple_n},
            field="couple",
        )
    return {
        "kind": kind,
        "language": drive.language,
        "paper": paper,
        "game": game_n,
        "couple": couple_n,
        "filled": filled,
        "base_url": base_url.rstrip("/"),
    }


def document_allowed(drive: Drive, kind: str, user: Any) -> bool:
    """Whether ``user`` may print ``drive``'s document ``kind`` and see it among the printed
    documents: every member of the club may print scoring's own; a registered part
    (``scoring.printing.parts``: the treasurer's sheet) says who may print its own. The
    command line, with no account behind it, prints any."""
    part = part_of(kind)
    if part is None or user is None or not user.is_authenticated:
        return True
    return part.allowed(drive, user)


def refuse_unless_allowed(drive: Drive, kind: str, actor: Actor) -> None:
    """A ``ServiceError`` ``not_allowed`` (403), in the part's words, when the actor may not
    print ``kind`` (``document_allowed``)."""
    part = part_of(kind)
    if part is not None and not document_allowed(drive, kind, actor.account):
        raise ServiceError("not_allowed", str(part.refusal), status=403, field="document")


def prepare_tables(drive: Drive, kind: str, actor: Actor | None) -> None:
    """Before the night starts, set out the tables a table card or score sheet is printed for
    (``tables_prepare``); a 409 ``no_tables`` says why they must wait when there are none."""
    if kind in PER_TABLE and drive.state == Drive.State.SETUP:
        tables_prepare(drive=drive, actor=actor or SYSTEM)


def print_data_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options ``print_data`` takes for the data version (not the paper nor the URL)."""
    return {"game": options["game"], "couple": options["couple"], "filled": options["filled"]}


def document_data_options(document: Document) -> dict[str, Any]:
    return {"game": document.game, "couple": document.couple, "filled": document.filled}


def document_has_file(document: Document) -> bool:
    name = document.file.name
    return name is not None and name != "" and document.file.storage.exists(name)


def audit_print_request(drive: Drive, actor: Actor, options: dict[str, Any], status: str) -> None:
    """The audit entry of a print request: which document, its options, and what the
    request found (``done``: already printed and up to date, else ``queued`` or
    ``running``; ``rendered`` for the command line, which renders there and then)."""
    new = {
        "document": options["kind"],
        "paper": options["paper"],
        "game": options["game"],
        "couple": options["couple"],
        "filled": options["filled"],
        "language": options["language"],
        "status": status,
    }
    audit(drive, actor, "document.print", subject=options["kind"], new=new)


def document_filename(document: Document) -> str:
    """The PDF's name for the person downloading it, e.g. ``spring-drive-movement-game-3.pdf``."""
    parts = [document.drive.slug, document.kind]
    if document.game is not None:
        parts.append(f"game-{document.game}")
    if document.couple is not None:
        parts.append(f"couple-{document.couple}")
    if document.filled:
        parts.append("filled")
    parts.append(document.paper)
    return "-".join(parts) + ".pdf"


def document_failed(document_id: int, task_id: str, message: str) -> bool:
    """Mark the document failed with ``message`` unless it is done or a newer request
    (another ``task_id``) has taken it over. True if it was marked."""
    rows = Document.objects.filter(pk=document_id, task_id=task_id).exclude(
        status=Document.Status.DONE
    )
    return bool(
        rows.update(status=Document.Status.FAILED, error=message, finished_at=timezone.now())
    )


def document_render(
    drive: Drive,
    kind: Any,
    *,
    paper: Any = Document.Paper.LETTER,
    game: Any = None,
    couple: Any = None,
    filled: Any = False,
    base_url: Any = DEFAULT_BASE_URL,
    progress: Callable[[int, int], None] | None = None,
    actor: Actor | None = None,
) -> bytes:
    """The PDF of a document rendered here and now, with no Document row (the command line);
    the request audited (``document.print``, status ``rendered``) when ``actor`` is given."""
    options = document_options(
        drive, kind, paper=paper, game=game, couple=couple, filled=filled, base_url=base_url
    )
    if actor is not None:
        refuse_unless_allowed(drive, options["kind"], actor)
    prepare_tables(drive, options["kind"], actor)
    if actor is not None:
        audit_print_request(drive, actor, options, "rendered")
    data = build_data(
        drive, options["kind"], **print_data_options(options), base_url=options["base_url"]
    )
    return render_pdf(options["kind"], data, paper=options["paper"], progress=progress)


# --- the task's body --------------------------------------------------------------------------


def _count_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def document_run(document_id: int, task_id: str | None = None) -> str:
    """Render the document ``document_id`` and keep the PDF. Returns what happened: ``done``,
    ``up-to-date`` (already done from the same data: left alone), ``superseded`` (``task_id``
    is an older request's: the newer one's task renders it), ``missing`` or ``failed`` (the
    error is recorded on the document)."""
    document = Document.objects.select_related("drive").filter(pk=document_id).first()
    if document is None:
        return "missing"
    drive = document.drive
    data_options = document_data_options(document)
    rows = Document.objects.filter(pk=document.pk)

    def fail(message: str) -> str:
        rows.update(status=Document.Status.FAILED, error=message, finished_at=timezone.now())
        return "failed"

    try:
        with translation.override(document.language or settings.LANGUAGE_CODE):
            version = version_of(drive, document.kind, **data_options)
        if (
            document.status == Document.Status.DONE
            and document.data_version == version
            and document_has_file(document)
        ):
            return "up-to-date"
        if task_id and document.task_id and task_id != document.task_id:
            return "superseded"
        rows.update(status=Document.Status.RUNNING, pages_done=0, pages_total=0, error="")

        def progress(done: int, total: int) -> None:
            if done == total or done % PROGRESS_EVERY == 0 or done == 1:
                rows.update(pages_done=done, pages_total=total)

        with translation.override(document.language or settings.LANGUAGE_CODE):
            data = build_data(
                drive,
                document.kind,
                **data_options,
                base_url=document.base_url or DEFAULT_BASE_URL,
            )
            pdf = render_pdf(document.kind, data, paper=document.paper, progress=progress)
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        return fail(
            gettext("The rendering took longer than %(limit)s s and was stopped.")
            % {"limit": limit}
        )
    except Exception as error:  # recorded for the organizer, not raised into the page
        logger.exception("rendering document %s failed", document_id)
        return fail(gettext("The rendering failed: %(error)s") % {"error": error})

    pages = _count_pages(pdf)
    document.file.save(document_filename(document), ContentFile(pdf), save=False)
    new_name = document.file.name
    with transaction.atomic():
        current = Document.objects.select_for_update().get(pk=document.pk)
        old_name = current.file.name
        rows.update(
            file=new_name,
            status=Document.Status.DONE,
            data_version=version,
            pages_done=pages,
            pages_total=pages,
            error="",
            finished_at=timezone.now(),
        )
    if old_name and old_name != new_name:
        document.file.storage.delete(old_name)
    return "done"
