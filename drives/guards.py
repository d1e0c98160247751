"""The checks every room makes before it writes: the drive's lock, "the drive is open", and
the verdict on a game's points. ``drives.services`` (the night before the results),
``scoring.services`` (the results and the advance) and ``scoring.prizes`` (ties and play-offs)
all call these, so each is written once, here, in public.

Each raises ``drives.errors.ServiceError`` (a 4xx naming the problem) rather than answering
anything half-checked; none writes anything.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import connection
from django.utils.translation import gettext, gettext_noop, ngettext

from drives import inputs, race
from drives.errors import ServiceError
from drives.models import Drive
from engine.scores import Verdict, check_final_score

_DRIVE_FOR_SHARE = f"SELECT * FROM {Drive._meta.db_table} WHERE id = %s FOR SHARE"


def lock_drive(drive: Drive, *, shared: bool = False) -> Drive:
    """The drive row (with its club), read again and locked for this transaction
    (PostgreSQL: FOR UPDATE; SQLite: the IMMEDIATE transaction already holds the write lock).
    Not locked in a test's control run only (``SERVICES_LOCKING``, drives/race.py).

    ``shared`` (PostgreSQL only): FOR SHARE, for writes that may run side by side but never
    alongside an exclusive one — the results of different tables are recorded at the same time
    (their commits share the disk flushes), while the advance, which locks FOR UPDATE, waits
    for them and they wait for it. Two writes to the same table are taken one after the
    other by a lock on that table's seat row (scoring.services). The ORM's row locks are all
    exclusive (``select_for_update``: FOR UPDATE, or FOR NO KEY UPDATE, which also conflicts
    with itself and would queue the tables' results one behind the other), so this one lock
    is written out: the drive's columns, its club then read on first use.
    """
    if shared and race.locking() and connection.features.has_select_for_update_of:
        for locked in Drive.objects.raw(_DRIVE_FOR_SHARE, [drive.pk]):
            return locked
        raise Drive.DoesNotExist(f"drive {drive.pk} is gone")
    rows = Drive.objects.select_related("club")
    if race.locking():
        rows = rows.select_for_update(of=("self",))
    return rows.get(pk=drive.pk)


def require_open(drive: Drive) -> None:
    """Refuse any change to a closed drive (``drive_closed``, 409 through the API): once the
    organizer closes the night, its results, couples and prizes stay as they were printed."""
    if drive.state == Drive.State.CLOSED:
        raise ServiceError(
            "drive_closed", gettext("The drive is closed: nothing can change any more.")
        )


# The engine's words for a verdict on a final score (engine.scores.WORDS), by code and wording,
# marked for translation: the same English, word for word, so that the catalog's msgid is the
# engine's sentence. A score sheet's verdicts are not shown by the apps: they keep the engine's.
VERDICT_WORDS: dict[tuple[str, str], str] = {
    ("winner_below_target", ""): gettext_noop(
        "%(score)s: the winner needs at least %(target)s points."
    ),
    ("winner_below_target", "five_tricks"): gettext_noop(
        "%(score)s: the winner needs at least %(target)s points, or all five tricks of the "
        "last hand."
    ),
    ("winner_below_target", "floor"): gettext_noop(
        "%(score)s: the winner needs at least %(target)s points, or the losers at %(floor)s or "
        "below."
    ),
    ("loser_ahead", ""): gettext_noop(
        "%(score)s: the losing couple cannot have more points than the winner."
    ),
    ("loser_ahead", "auction"): gettext_noop(
        "%(score)s: the losing couple can be ahead only when both reach %(target)s in the "
        "same hand and the winners were the bidders."
    ),
    ("too_many_points", "winner"): gettext_noop(
        "%(score)s: more points than the hands could give; a winner ends with at most %(most)s."
    ),
    ("too_many_points", "loser"): gettext_noop(
        "%(score)s: more points than the hands could give; a loser ends with at most %(most)s."
    ),
    ("game_already_won", ""): gettext_noop(
        "%(score)s: this needs a hand played after the game was already won (the game "
        "ends as soon as a couple has %(target)s)."
    ),
    ("game_already_won", "five_tricks"): gettext_noop(
        "%(score)s: this needs a hand played after the game was already won (the game "
        "ends as soon as a couple has %(target)s or takes all five tricks)."
    ),
    ("tie_played_on", ""): gettext_noop(
        "%(score)s: a tie at %(target)s or more is not the end of a game under these "
        "rules; another hand is played until one couple is ahead."
    ),
    ("not_whole_hands", ""): gettext_noop(
        "%(score)s: %(total)s points in all is not a number of whole hands (a hand gives "
        "%(full)s, or %(trumpless)s without a trump)."
    ),
    ("not_reachable", ""): gettext_noop("%(score)s: no last hand of auction ends a game so."),
    ("not_multiple_of_five", ""): gettext_noop(
        "%(value)s is not a multiple of 5: points come in fives."
    ),
    ("negative_points", ""): gettext_noop("%(value)s: points cannot go below zero in this game."),
}


def verdict_words(verdict: Verdict) -> str:
    """The engine's verdict in the language active (the engine speaks English only): its
    code's words, filled with the verdict's own numbers; the engine's words for a verdict not
    known here (a regular score, a score sheet's)."""
    if verdict.code == "trumpless_hands" and verdict.wording in ("one", "many"):
        hands = verdict.trumpless_hands
        return ngettext(
            "%(score)s can only happen with %(hands)s hand in which no trump was played. "
            "Check it with the table, then confirm it.",
            "%(score)s can only happen with %(hands)s hands in which no trump was played. "
            "Check it with the table, then confirm it.",
            hands,
        ) % dict(verdict.params)
    words = VERDICT_WORDS.get((verdict.code, verdict.wording))
    if words is None:
        return verdict.message
    return gettext(words) % dict(verdict.params)


def score_points(drive: Drive, points: Any) -> tuple[int | None, int | None, Verdict | None]:
    """(winner's points, loser's points, verdict) as they would be stored, or a 422 for points
    that are malformed or impossible under the drive's rules (engine.scores). An unusual score
    is judged, not yet refused (see ``admit_unusual``). Points entered loser first are turned
    round: the winner is named, so the order of entry does not matter. No points: all None."""
    points = inputs.POINTS.check(points)
    if points is None:
        return None, None, None
    rules = drive.rules_in_play()
    first, second = points
    verdict = check_final_score(first, second, rules)
    if first < second and not verdict.accepted:
        # Entered loser first: the winner is named, so the order of entry does not matter.
        first, second = second, first
        verdict = check_final_score(first, second, rules)
    verdict = replace(verdict, message=verdict_words(verdict))
    if verdict.status == "impossible":
        raise ServiceError(verdict.code, verdict.message, verdict=verdict.to_dict())
    return first, second, verdict


def admit_unusual(verdict: Verdict | None, confirm_unusual: Any) -> None:
    """Refuse an unusual score the caller has not confirmed (``unusual_score``, 422), before
    it is stored; ``confirm_unusual`` must be a boolean whenever there are points."""
    if verdict is None:
        return
    inputs.CONFIRM_UNUSUAL.check(confirm_unusual)
    if verdict.status == "unusual" and not confirm_unusual:
        raise ServiceError(
            "unusual_score",
            gettext("%(message)s Send it again with confirm_unusual set to accept it.")
            % {"message": verdict.message},
            verdict=verdict.to_dict(),
        )


def judge_points(
    drive: Drive, points: Any, confirm_unusual: Any
) -> tuple[int | None, int | None, Verdict | None]:
    """``score_points`` then ``admit_unusual``: the stored points and their verdict, or the
    422 naming the engine's reason (a result's correction, a play-off's score)."""
    first, second, verdict = score_points(drive, points)
    admit_unusual(verdict, confirm_unusual)
    return first, second, verdict
