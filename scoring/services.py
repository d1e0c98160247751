"""Writes of results and of the night's progress: recording a table's result (idempotent,
conflicts kept), the other couple's confirmation, resolving and correcting, and the advance
from one game to the next (computed once, atomically, with the engine's movement).

A submission is stored, or refused with a 4xx, never answered "replayed" while something it
said is dropped: a replay is the same winner and points again (the same key with another body
is refused, ``key_reused``; another key with other points is a conflict for the desk).

Every service locks the drive row first, so two desks, two phones or two organizers pressing at
the same instant are served one after the other; the unique constraint on a result's seat is
the last line of defence. Who may call what is the caller's business (the API checks roles and
tokens); these functions check the night's rules and write the audit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from drives import inputs, race
from drives.backup import backup_after_commit
from drives.errors import Conflict, NotFound, ServiceError
from drives.guards import admit_unusual, judge_points, lock_drive, require_open, score_points
from drives.models import AuditEntry, Couple, Drive, Game, Seat, Table
from drives.pageboard import cards_forget
from drives.services import Actor, Change, audit, game_open
from engine.movement import MovementError, Seating, TableSeat, check_invariants, next_seating
from engine.scores import Verdict
from scoring.models import Result, ResultVersion, TableCall


@dataclass(frozen=True)
class Recorded:
    """What became of a call: ``status`` is the HTTP answer (201 stored; 200 done, or a
    replay); ``replayed``: nothing was written because the same thing had already been done
    (the same submission again, the same confirmation, the same settlement)."""

    status: int
    result: Result
    verdict: Verdict | None = None
    conflict: Conflict | None = None
    replayed: bool = False
    corrected: bool = False


def seat_for(
    drive: Drive, game_number: Any, table_number: Any, *, lock: bool = False
) -> tuple[Game, Seat]:
    """The game and the seat at its table (with its couples), in one query. ``lock``: the
    seat row FOR UPDATE (PostgreSQL), so that two entries for one table are taken one after
    the other even where the drive is only locked FOR SHARE."""
    inputs.GAME.check(game_number)
    inputs.TABLE.check(table_number)
    # The drive twice: the table is found by its (drive, number) index and the seat by its
    # (game, table) one, without scanning the game's seats. .order_by(): the models' default
    # ordering would join and sort for nothing. A number past its column's range finds
    # nothing (Django's integer look-ups), as a number of no table does.
    seats = (
        Seat.objects.select_related("game", "table", "stays", "arrives")
        .filter(
            game__drive=drive,
            game__number=game_number,
            table__drive=drive,
            table__number=table_number,
        )
        .order_by()
    )
    if lock and race.locking():
        seats = seats.select_for_update(of=("self",))
    for seat in seats[:1]:
        return seat.game, seat
    if not Game.objects.filter(drive=drive, number=game_number).exists():
        raise ServiceError(
            "game_not_started",
            gettext("Game %(game_number)s has not started.") % {"game_number": game_number},
            game=game_number,
        )
    raise ServiceError(
        "no_such_table",
        gettext("Nobody plays at table %(table_number)s in game %(game_number)s.")
        % {"table_number": table_number, "game_number": game_number},
    )


def result_at(seat: Seat) -> Result | None:
    """The table's result in the seat's game, if any (read after the seat's lock)."""
    return Result.objects.filter(seat=seat).select_related("winner").order_by().first()


def _key_seen(result: Result, key: str) -> tuple[int, list[int] | None] | None:
    """What the first submission kept for the result under this idempotency key said: (its
    winner's id, its points), or None if the key is new."""
    row = (
        ResultVersion.objects.filter(result=result, key=key)
        .order_by("id")
        .values_list("winner_id", "winner_points", "loser_points")
        .first()
    )
    if row is None:
        return None
    winner_id, winner_points, loser_points = row
    return winner_id, (
        None if winner_points is None or loser_points is None else [winner_points, loser_points]
    )


def _said(couple: int, points: list[int] | None) -> str:
    """A result in words: "couple 12 winning 50–40", or "couple 12 (no points)"."""
    if points is None:
        return gettext("couple %(couple)s (no points)") % {"couple": couple}
    return gettext("couple %(couple)s winning %(winner_points)s–%(loser_points)s") % {
        "couple": couple,
        "winner_points": points[0],
        "loser_points": points[1],
    }


def _check_winner(seat: Seat, winner: Any) -> Couple:
    inputs.WINNER.check(winner)
    couples = [c for c in (seat.stays, seat.arrives) if c is not None]
    if len(couples) < 2:
        raise ServiceError(
            "sit_out_table",
            gettext("Table %(number)s is a sit-out: it needs no result.")
            % {"number": seat.table.number},
        )
    for couple in couples:
        if couple.number == winner:
            return couple
    numbers = " and ".join(str(c.number) for c in couples)
    raise ServiceError(
        "wrong_couple",
        gettext("Couple %(winner)s is not at table %(number)s in this game (it seats %(numbers)s).")
        % {"winner": winner, "number": seat.table.number, "numbers": numbers},
    )


def _clean_key(key: Any) -> str:
    return inputs.RESULT_KEY.check(key) or ""


def result_record(
    *,
    drive: Drive,
    game: Any,
    table: Any,
    winner: Any,
    points: Any = None,
    key: Any = None,
    confirm_unusual: Any = False,
    actor: Actor,
) -> Recorded:
    """Record who won at a table. 201 stored; 200 ``replayed`` when it says nothing the
    stored result does not: the same ``key`` with the same winner and points (given in the
    same way: both absent or equal), or, under another key, the same winner with the same
    points or none. Raises :class:`Conflict` (409): ``key_reused`` when the same ``key`` comes
    with another winner or other points (refused: nothing stored, the refusal audited,
    ``differs`` naming what differs); ``result_conflict`` when another winner or other points
    are already there (the submission kept, the table marked in conflict for the desk). 422
    for anything invalid. ``confirm_unusual`` is no part of what is compared: it only lets an
    unusual score be stored."""
    key = _clean_key(key)
    try:
        with transaction.atomic():
            recorded = _record(drive, game, table, winner, points, key, confirm_unusual, actor)
    except IntegrityError:
        # Another writer stored this table's result between our read and our write (only
        # possible without the drive lock); what it stored decides, as for a second entry.
        with transaction.atomic():
            recorded = _record(drive, game, table, winner, points, key, confirm_unusual, actor)
    if recorded.conflict is not None:
        # Raised only now, after the conflicting entry and the table's state are committed.
        raise recorded.conflict
    return recorded


@dataclass(frozen=True)
class _Entry:
    """One submission of a table's result, checked: who sends it, for which table of which
    game, and what it says (the winner, the points as stored, their verdict, its key)."""

    drive: Drive
    actor: Actor
    game: Game
    seat: Seat
    winner: Couple
    win_pts: int | None
    lose_pts: int | None
    verdict: Verdict | None
    key: str

    @property
    def sent(self) -> list[int] | None:
        """The points sent, winner's first (None: no points)."""
        return (
            None if self.win_pts is None or self.lose_pts is None else [self.win_pts, self.lose_pts]
        )

    @property
    def subject(self) -> str:
        return f"game {self.game.number} table {self.seat.table.number}"

    def version(self, kind: str, result: Result | None = None) -> ResultVersion:
        """The version that keeps this submission (not yet saved)."""
        actor = self.actor
        return ResultVersion(
            result=result,
            kind=kind,
            winner=self.winner,
            winner_points=self.win_pts,
            loser_points=self.lose_pts,
            key=self.key,
            channel=actor.channel,
            user=actor.account,
            couple=actor.couple,
            device=actor.device,
        )


def _record(
    drive: Drive,
    game_number: Any,
    table_number: Any,
    winner_number: Any,
    points: Any,
    key: str,
    confirm_unusual: Any,
    actor: Actor,
) -> Recorded:
    drive = lock_drive(drive, shared=True)
    require_open(drive)
    game, seat = seat_for(drive, game_number, table_number, lock=True)
    existing = result_at(seat)
    race.pause("result.read")
    winner = _check_winner(seat, winner_number)
    win_pts, lose_pts, verdict = score_points(drive, points)
    entry = _Entry(drive, actor, game, seat, winner, win_pts, lose_pts, verdict, key)
    undone = None
    if existing is not None and existing.state == Result.State.UNDONE:
        undone, existing = _taken_back(entry, existing), None
    if existing is not None and key:
        seen = _key_seen(existing, key)
        if seen is not None:
            return _same_key(entry, existing, seen)
    if existing is not None and _says_nothing_new(entry, existing):
        return Recorded(200, existing, replayed=True)
    _require_in_play(entry)
    admit_unusual(verdict, confirm_unusual)
    if existing is None:
        return _enter(entry, undone)
    if _own_entry_open(existing, actor):
        return _correct_own(entry, existing)
    return _conflict(entry, existing)


def _taken_back(entry: _Entry, undone: Result) -> Result:
    """A result undone: the table has no result, and the row takes the new entry. A
    submission sent before the undo (its key is on the row) is not stored again behind the
    back of whoever undid it: 409 ``result_undone``."""
    if entry.key and _key_seen(undone, entry.key) is not None:
        table, game = entry.seat.table.number, entry.game.number
        raise Conflict(
            "result_undone",
            gettext(
                "This result of table %(table)s in game %(game)s was undone: enter who won again."
            )
            % {"table": table, "game": game},
            table=table,
            game=game,
        )
    return undone


def _says_nothing_new(entry: _Entry, existing: Result) -> bool:
    """A replay under another key: the same winner, with the same points or none, at a table
    not in conflict."""
    return (
        existing.winner_id == entry.winner.pk
        and existing.state != Result.State.CONFLICT
        and (entry.sent is None or entry.sent == existing.points)
    )


def _require_in_play(entry: _Entry) -> None:
    """A table's own entry is for the game in play; an earlier one is the desk's correction."""
    number, current = entry.game.number, entry.drive.current_game
    if number != current:
        raise ServiceError(
            "game_not_in_play",
            gettext(
                "Game %(number)s is over (game %(current_game)s is in play); the desk can "
                "correct it."
            )
            % {"number": number, "current_game": current},
        )


def _enter(entry: _Entry, undone: Result | None) -> Recorded:
    """The table's result stored (in the row of an undone one, if any): accepted, or pending
    the other couple's confirmation when the drive asks for it and a card sent it."""
    needs_confirmation = entry.drive.confirm_by_other_couple and entry.actor.channel in (
        AuditEntry.Channel.TABLE,
        AuditEntry.Channel.COUPLE,
    )
    verdict = entry.verdict
    fields = {
        "winner": entry.winner,
        "winner_points": entry.win_pts,
        "loser_points": entry.lose_pts,
        "verdict": verdict.code if verdict else "",
        "state": Result.State.PENDING if needs_confirmation else Result.State.ACCEPTED,
    }
    if undone is not None:
        for name, value in fields.items():
            setattr(undone, name, value)
        undone.updated_at = timezone.now()
        undone.save()
        result = undone
    else:
        result = Result.objects.create(game=entry.game, seat=entry.seat, **fields)
    entry.version(ResultVersion.Kind.ENTERED, result).save()
    audit(
        entry.drive,
        entry.actor,
        "result.enter",
        subject=entry.subject,
        new={"winner": entry.winner.number, "points": result.points, "state": result.state},
        changed=Change.RESULT,
    )
    return Recorded(201, result, verdict)


def _conflict(entry: _Entry, existing: Result) -> Recorded:
    """Another winner, or other points, than the table's result: the entry kept beside it
    and the table marked in conflict for the desk; a 409 ``result_conflict`` naming what
    differs, raised once this is committed (``result_record``)."""
    winner, sent = entry.winner, entry.sent
    version = entry.version(ResultVersion.Kind.CONFLICTING, existing)
    version.previous_winner_id = existing.winner_id
    version.save()
    if existing.state != Result.State.CONFLICT:
        existing.state = Result.State.CONFLICT
        existing.updated_at = timezone.now()
        existing.save(update_fields=["state", "updated_at"])
    audit(
        entry.drive,
        entry.actor,
        "result.conflict",
        subject=entry.subject,
        old={"winner": existing.winner.number, "points": existing.points},
        new={"winner": winner.number, "points": sent},
        changed=Change.RESULT,
    )
    differs = [
        name
        for name, same in (
            ("winner", existing.winner_id == winner.pk),
            ("points", sent is None or sent == existing.points),
        )
        if not same
    ]
    table, game = entry.seat.table.number, entry.game.number
    if differs == ["points"]:
        said = gettext(
            "Table %(table)s already has %(stored)s in game %(game)s, not %(sent)s; both "
            "entries are kept for the desk to resolve."
        ) % {
            "table": table,
            "game": game,
            "stored": _said(winner.number, existing.points),
            "sent": _said(winner.number, sent),
        }
    else:
        said = gettext(
            "Table %(table)s already has couple %(winner)s as the winner of game %(game)s; "
            "both entries are kept for the desk to resolve."
        ) % {"table": table, "game": game, "winner": existing.winner.number}
    conflict = Conflict(
        "result_conflict",
        said,
        winner=existing.winner.number,
        points=existing.points,
        table=table,
        game=game,
        differs=differs,
    )
    return Recorded(409, existing, conflict=conflict)


# How long a scorer's own entry at the desk stays theirs to correct by typing the table again
# (8 → 15, then 8 → 16): a typo is seen on the status line at once. Later, or once anyone
# else has entered, confirmed or settled it, another entry is a conflict, settled with a reason.
OWN_CORRECTION_SECONDS = 60


def _own_entry_open(result: Result, actor: Actor) -> bool:
    """Whether ``result`` stands on the desk entries of ``actor``'s scorer alone (entered,
    then perhaps corrected by them), the last less than ``OWN_CORRECTION_SECONDS`` ago.
    Phones, the API and a signed-out caller never correct: theirs is a conflict."""
    account = actor.account
    if (
        account is None
        or actor.channel != AuditEntry.Channel.DESK
        or result.state != Result.State.ACCEPTED
    ):
        return False
    versions = list(result.versions.order_by("at", "id"))
    undone = [i for i, v in enumerate(versions) if v.kind == ResultVersion.Kind.UNDONE]
    since = versions[undone[-1] + 1 :] if undone else versions  # what stands since an undo
    own = (ResultVersion.Kind.ENTERED, ResultVersion.Kind.CORRECTED)
    if not since or any(
        v.kind not in own or v.channel != actor.channel or v.user_id != account.pk for v in since
    ):
        return False
    return timezone.now() <= since[-1].at + timedelta(seconds=OWN_CORRECTION_SECONDS)


def _correct_own(entry: _Entry, result: Result) -> Recorded:
    """The scorer's own entry replaced by what they typed next: a new version (kind
    ``corrected``) and an audit entry ``result.correct``, never a conflict."""
    old = {"winner": result.winner.number, "points": result.points}
    previous = result.winner_id
    verdict = entry.verdict
    result.winner = entry.winner
    result.winner_points, result.loser_points = entry.win_pts, entry.lose_pts
    result.verdict = verdict.code if verdict else ""
    result.updated_at = timezone.now()
    result.save()
    ResultVersion.objects.create(
        result=result,
        kind=ResultVersion.Kind.CORRECTED,
        winner=entry.winner,
        winner_points=entry.win_pts,
        loser_points=entry.lose_pts,
        previous_winner_id=previous,
        channel=entry.actor.channel,
        user=entry.actor.account,
    )
    audit(
        entry.drive,
        entry.actor,
        "result.correct",
        subject=entry.subject,
        old=old,
        new={"winner": entry.winner.number, "points": result.points},
        note="the same scorer's own entry, corrected at once",
        changed=Change.RESULT,
    )
    return Recorded(201, result, verdict, corrected=True)


def _same_key(entry: _Entry, existing: Result, seen: tuple[int, list[int] | None]) -> Recorded:
    """A key already kept for this result: a replay if the body says the same (winner and
    points), else refused (409 ``key_reused``, audited, nothing stored)."""
    seat, game, key, winner, sent = entry.seat, entry.game, entry.key, entry.winner, entry.sent
    seen_winner_id, seen_points = seen
    differs = [
        name
        for name, same in (("winner", seen_winner_id == winner.pk), ("points", seen_points == sent))
        if not same
    ]
    if not differs:
        return Recorded(200, existing, replayed=True)
    seen_winner = next(
        (c.number for c in (seat.stays, seat.arrives) if c is not None and c.pk == seen_winner_id),
        None,
    )
    if seen_winner is None:  # not one of the table's couples: only a hand-edited database
        seen_winner = Couple.objects.values_list("number", flat=True).get(pk=seen_winner_id)
    audit(
        entry.drive,
        entry.actor,
        "result.key_reused",
        subject=entry.subject,
        old={"winner": seen_winner, "points": seen_points},
        new={"winner": winner.number, "points": sent},
        note=f"key {key!r}: refused, nothing stored ({', '.join(differs)} differ)",
        changed=Change.RESULT,
    )
    conflict = Conflict(
        "key_reused",
        gettext(
            "The key %(key)s was already used at table %(table)s of game %(game)s for "
            "%(stored)s, not %(sent)s: this submission was not stored. Send a new result "
            "with a new key."
        )
        % {
            "key": f"{key!r}",
            "table": seat.table.number,
            "game": game.number,
            "stored": _said(seen_winner, seen_points),
            "sent": _said(winner.number, sent),
        },
        differs=differs,
        key=key,
        winner=seen_winner,
        points=seen_points,
        table=seat.table.number,
        game=game.number,
    )
    return Recorded(409, existing, conflict=conflict)


# How long whoever entered a result may take it back themselves. A wrong tap is seen at once,
# on the "Saved" screen that follows it; a minute leaves time to read it and tap Undo, and
# is over before the desk, which waits for the last tables, usually starts the next game.
# Later, or once the other couple has confirmed it, a change is the desk's correction (with
# a reason): the couples may already have moved on the strength of it.
UNDO_SECONDS = 60


def undo_open_until(state: str, versions: list[ResultVersion]) -> Any:
    """Until when a result (its ``state``, its ``versions`` oldest first) may still be undone
    by whoever entered it, or None if it may not: only an entry standing alone since the last
    undo (not confirmed, rejected, contradicted or corrected), from a table's or a couple's
    card, can be taken back. The clock, the card and the game in play are the caller's."""
    if state not in (Result.State.ACCEPTED, Result.State.PENDING):
        return None
    since = versions
    for i, version in enumerate(versions):
        if version.kind == ResultVersion.Kind.UNDONE:
            since = versions[i + 1 :]
    if len(since) != 1 or since[0].kind != ResultVersion.Kind.ENTERED:
        return None
    if since[0].channel not in (AuditEntry.Channel.TABLE, AuditEntry.Channel.COUPLE):
        return None
    return since[0].at + timedelta(seconds=UNDO_SECONDS)


def result_undo(*, drive: Drive, game: Any, table: Any, actor: Actor) -> Recorded:
    """Take back a result just entered from a table's or a couple's card: the table has no
    result again, and a new tap enters one. Only by the same card (channel and couple) and
    phone (``device``), within ``UNDO_SECONDS`` of the entry, while its game is in play and
    nobody else has answered it (the other couple's confirmation or rejection, another entry,
    the desk). Kept as a version (kind ``undone``) and audited. 409 with ``undo_closed`` (too
    late), ``game_advanced``, ``confirmed`` (or ``answered``), ``not_yours``, ``other_phone``
    (the same card from another phone); 404 ``no_result``. The same undo again is a replay
    (200, nothing written)."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        game_row, seat = seat_for(drive, game, table, lock=True)
        result = result_at(seat)
        if result is None:
            raise NotFound("no_result", gettext("There is no result to undo at this table."))
        versions = list(result.versions.order_by("at", "id"))
        last = versions[-1] if versions else None
        if result.state == Result.State.UNDONE:
            if last is not None and _same_card(last, actor) and last.device == actor.device:
                return Recorded(200, result, replayed=True)
            raise NotFound("no_result", gettext("There is no result to undo at this table."))
        if game_row.number != drive.current_game:
            raise Conflict(
                "game_advanced",
                gettext(
                    "Game %(number)s is over (game %(current_game)s is in play): too late to "
                    "undo. Tell the desk if the result is wrong."
                )
                % {"number": game_row.number, "current_game": drive.current_game},
            )
        entry = next((v for v in reversed(versions) if v.kind == ResultVersion.Kind.ENTERED), None)
        if entry is None or not _same_card(entry, actor):
            raise Conflict(
                "not_yours",
                gettext("This result was not entered from this card: only the desk can change it."),
            )
        if entry.device != actor.device:
            # Both couples' phones open the same table card: only the one that tapped undoes.
            raise Conflict(
                "other_phone",
                gettext(
                    "This result was entered from another phone: only that phone can undo it. "
                    "Confirm it or call the desk."
                ),
            )
        if last is not None and last.kind == ResultVersion.Kind.CONFIRMED:
            raise Conflict(
                "confirmed",
                gettext(
                    "The other couple has confirmed this result: too late to undo. Tell the "
                    "desk if it is wrong."
                ),
            )
        until = undo_open_until(result.state, versions)
        if until is None:
            raise Conflict(
                "answered",
                gettext(
                    "Someone else has answered this result since (another entry, a rejection "
                    "or the desk): too late to undo. Tell the desk."
                ),
            )
        if timezone.now() > until:
            raise Conflict(
                "undo_closed",
                gettext(
                    "Too late to undo: a result can be undone only in the first "
                    "%(UNDO_SECONDS)s seconds. Tell the desk if it is wrong."
                )
                % {"UNDO_SECONDS": UNDO_SECONDS},
                seconds=UNDO_SECONDS,
            )
        old = {"winner": result.winner.number, "points": result.points, "state": result.state}
        result.state = Result.State.UNDONE
        result.updated_at = timezone.now()
        result.save(update_fields=["state", "updated_at"])
        ResultVersion.objects.create(
            result=result,
            kind=ResultVersion.Kind.UNDONE,
            winner_id=result.winner_id,
            winner_points=result.winner_points,
            loser_points=result.loser_points,
            previous_winner_id=result.winner_id,
            channel=actor.channel,
            user=actor.account,
            couple=actor.couple,
            device=actor.device,
        )
        audit(
            drive,
            actor,
            "result.undo",
            subject=f"game {game_row.number} table {seat.table.number}",
            old=old,
            new=None,
            note=f"undone {(result.updated_at - entry.at).seconds} s after it was entered",
            changed=Change.RESULT,
        )
    return Recorded(200, result)


def _same_card(version: ResultVersion, actor: Actor) -> bool:
    """Whether ``version`` came from the card (table or couple) that ``actor`` holds."""
    couple = actor.couple
    return version.channel == actor.channel and version.couple_id == (
        couple.pk if couple is not None else None
    )


def result_confirm(
    *, drive: Drive, couple: Couple, game: Any, accept: Any, actor: Actor
) -> Recorded:
    """The other couple confirms (or rejects) a result entered from one side, on a drive with
    ``confirm_by_other_couple``. A rejection puts the table in conflict for the desk. The same
    couple giving the same answer again, nothing having happened since, is a replay (200,
    ``replayed``, nothing written); any other call once the result is no longer pending is a
    409 ``not_pending``."""
    accept = inputs.ACCEPT.check(accept)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        inputs.GAME.check(game)
        seat = (
            Seat.objects.filter(game__drive=drive, game__number=game)
            .filter(Q(stays=couple) | Q(arrives=couple))
            .select_related("table")
            .first()
        )
        if seat is None:
            raise ServiceError(
                "not_at_a_table",
                gettext("Couple %(number)s did not play game %(game)s.")
                % {"number": couple.number, "game": game},
            )
        result = Result.objects.filter(seat=seat).select_related("winner").first()
        if result is None or result.state == Result.State.UNDONE:
            raise NotFound("no_result", gettext("There is no result to confirm at your table yet."))
        if result.state != Result.State.PENDING:
            if _answered_already(result, couple, accept):
                return Recorded(200, result, replayed=True)
            raise Conflict(
                "not_pending",
                gettext("This result is already %(value)s.")
                % {"value": result.get_state_display()},
            )
        entered = result.versions.order_by("at", "id").first()
        entered_by = entered.couple_id if entered else None
        confirmer = entered_by if entered_by is not None else None
        if entered_by == couple.pk or (confirmer is None and result.winner_id == couple.pk):
            raise ServiceError(
                "other_couple_confirms",
                gettext("The other couple at your table has to confirm this result."),
            )
        result.state = Result.State.ACCEPTED if accept else Result.State.CONFLICT
        result.updated_at = timezone.now()
        result.save(update_fields=["state", "updated_at"])
        ResultVersion.objects.create(
            result=result,
            kind=ResultVersion.Kind.CONFIRMED if accept else ResultVersion.Kind.REJECTED,
            winner_id=result.winner_id,
            winner_points=result.winner_points,
            loser_points=result.loser_points,
            channel=actor.channel,
            user=actor.account,
            couple=couple,
        )
        audit(
            drive,
            actor,
            "result.confirm" if accept else "result.reject",
            subject=f"game {game} table {seat.table.number}",
            new=result.state,
            changed=Change.RESULT,
        )
    return Recorded(200, result)


def _answered_already(result: Result, couple: Couple, accept: bool) -> bool:
    """Whether the result's last version is this couple's same answer, and stands."""
    kind, state = (
        (ResultVersion.Kind.CONFIRMED, Result.State.ACCEPTED)
        if accept
        else (ResultVersion.Kind.REJECTED, Result.State.CONFLICT)
    )
    last = result.versions.order_by("-at", "-id").first()
    return (
        result.state == state
        and last is not None
        and last.kind == kind
        and last.couple_id == couple.pk
    )


def result_resolve(
    *,
    drive: Drive,
    game: Any,
    table: Any,
    winner: Any,
    reason: Any,
    actor: Actor,
    points: Any = None,
    confirm_unusual: Any = True,
) -> Recorded:
    """Settle a conflict or correct a result (organizer or scorer), with a reason; allowed
    until the drive is closed. After the next game has started it changes wins and standings,
    never the seating already played, and the audit says so. ``points`` omitted keep the
    result's. The same settlement again by the same person (the result's last version is
    theirs, with the same winner, points and reason, and nothing has happened since) is a
    replay: 200 ``replayed``, nothing written."""
    reason = inputs.check_field(inputs.REASON, reason)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        game_row, seat = seat_for(drive, game, table)
        couple = _check_winner(seat, winner)
        win_pts, lose_pts, verdict = judge_points(drive, points, confirm_unusual)
        after_advance = game_row.number < drive.current_game
        result = result_at(seat)
        if result is not None and _settled_already(
            result, couple, win_pts, lose_pts, reason.strip(), actor
        ):
            return Recorded(200, result, replayed=True)
        old: dict[str, Any] | None = None
        if result is None:
            result = Result.objects.create(
                game=game_row,
                seat=seat,
                winner=couple,
                winner_points=win_pts,
                loser_points=lose_pts,
                verdict=verdict.code if verdict else "",
            )
        else:
            old = {"winner": result.winner.number, "points": result.points, "state": result.state}
            result.winner = couple
            if points is not None:
                result.winner_points, result.loser_points = win_pts, lose_pts
                result.verdict = verdict.code if verdict else ""
            result.state = Result.State.ACCEPTED
            result.updated_at = timezone.now()
            result.save()
        ResultVersion.objects.create(
            result=result,
            kind=ResultVersion.Kind.RESOLVED,
            winner=couple,
            winner_points=result.winner_points,
            loser_points=result.loser_points,
            previous_winner_id=None if old is None else _couple_id(drive, old["winner"]),
            channel=actor.channel,
            user=actor.account,
            reason=reason.strip(),
            after_advance=after_advance,
        )
        note = reason.strip()
        if after_advance:
            note += (
                f" (after game {drive.current_game} started: wins and standings change, "
                "the seating already played does not)"
            )
        subject = f"game {game_row.number} table {seat.table.number}"
        audit(
            drive,
            actor,
            "result.resolve",
            subject=subject,
            old=old,
            new={"winner": couple.number, "points": result.points},
            note=note,
            changed=Change.RESULT,
        )
    return Recorded(200, result)


def _settled_already(
    result: Result,
    couple: Couple,
    win_pts: int | None,
    lose_pts: int | None,
    reason: str,
    actor: Actor,
) -> bool:
    """Whether this settlement was the last thing done to the result, by the same person."""
    if result.state != Result.State.ACCEPTED or result.winner_id != couple.pk:
        return False
    if win_pts is not None and result.points != [win_pts, lose_pts]:
        return False
    last = result.versions.order_by("-at", "-id").first()
    account = actor.account
    return (
        last is not None
        and last.kind == ResultVersion.Kind.RESOLVED
        and last.reason == reason
        and last.channel == actor.channel
        and last.user_id == (account.pk if account is not None else None)
    )


def _couple_id(drive: Drive, number: int) -> int | None:
    return Couple.objects.filter(drive=drive, number=number).values_list("id", flat=True).first()


# --- the advance -------------------------------------------------------------------------------


def stored_seating(game: Game, seats: list[Seat] | None = None) -> Seating:
    """A stored game's seating as the engine sees it (seats with couples loaded)."""
    if seats is None:
        seats = list(Seat.objects.filter(game=game).select_related("table", "stays", "arrives"))
    closed = frozenset(
        game.drive.tables.filter(closed_game__lte=game.number).values_list("number", flat=True)
    )
    tables = tuple(
        sorted(
            (
                TableSeat(
                    s.table.number,
                    s.stays.number if s.stays else None,
                    s.arrives.number if s.arrives else None,
                )
                for s in seats
            ),
            key=lambda t: t.table,
        )
    )
    return Seating(tables, closed)


def game_advance(*, drive: Drive, game: Any, actor: Actor) -> tuple[int, Game]:
    """Start the game after ``game``: only when every table has an accepted result (409
    listing the tables otherwise). Once, atomically: pressing again returns the game already
    started (200). Late arrivals and withdrawals recorded since apply now."""
    inputs.GAME.check(game)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        if drive.state != Drive.State.RUNNING:
            raise ServiceError("not_started", gettext("The night has not started."))
        if game < drive.current_game:
            advanced = Game.objects.filter(drive=drive, number=game + 1).first()
            if advanced is None:
                raise NotFound(
                    "no_such_game", gettext("There is no game %(value)s.") % {"value": game + 1}
                )
            return 200, advanced
        if game > drive.current_game:
            raise ServiceError(
                "game_not_started", gettext("Game %(game)s has not started.") % {"game": game}
            )
        if game >= drive.games:
            raise ServiceError(
                "last_game",
                gettext("Game %(game)s is the last of the night: close the drive instead.")
                % {"game": game},
            )
        current = Game.objects.get(drive=drive, number=game)
        # Plain values rather than model instances: building ~2,000 instances for a 250-table
        # game cost more than all the queries of the advance together.
        # (table, stays, arrives, seat): no couple stays or arrives at the sit-out's seat.
        seats: list[tuple[int, int | None, int | None, int]] = sorted(
            Seat.objects.filter(game=current).values_list(
                "table__number", "stays__number", "arrives__number", "id"
            )
        )
        results: dict[int, tuple[str, int]] = {
            seat_id: (state, winner)
            for seat_id, state, winner in Result.objects.filter(game=current).values_list(
                "seat_id", "state", "winner__number"
            )
        }
        missing, conflicts, pending = [], [], []
        winners: dict[int, int] = {}
        for table, stays, arrives, seat_id in seats:
            if stays is None or arrives is None:
                continue
            state, winner = results.get(seat_id, (Result.State.UNDONE, 0))  # no result: missing
            if state == Result.State.UNDONE:
                missing.append(table)
            elif state == Result.State.CONFLICT:
                conflicts.append(table)
            elif state == Result.State.PENDING:
                pending.append(table)
            else:
                winners[table] = winner
        if missing or conflicts or pending:
            parts = []
            if missing:
                parts.append(
                    gettext("no result at table(s) %(tables)s") % {"tables": _listing(missing)}
                )
            if conflicts:
                parts.append(
                    gettext("conflict at table(s) %(tables)s") % {"tables": _listing(conflicts)}
                )
            if pending:
                parts.append(
                    gettext("waiting for confirmation at table(s) %(tables)s")
                    % {"tables": _listing(pending)}
                )
            raise Conflict(
                "game_incomplete",
                gettext("Game %(game)s is not complete: %(list)s.")
                % {"game": game, "list": "; ".join(parts)},
                missing=sorted(missing),
                conflicts=sorted(conflicts),
                pending=sorted(pending),
            )
        race.pause("advance.checked")
        closed = Table.objects.filter(drive=drive, closed_game__lte=game)
        seating = Seating(
            tuple(TableSeat(table, stays, arrives) for table, stays, arrives, _ in seats),
            frozenset(closed.values_list("number", flat=True)),
        )
        changes = list(
            Couple.objects.filter(drive=drive)
            .filter(Q(joined_game=game + 1) | Q(withdrawn_game=game + 1))
            .values_list("number", "joined_game", "withdrawn_game")
        )
        # A late couple withdrawn in the same break never sat: it is neither late nor gone.
        withdrawn = sorted(n for n, j, w in changes if w == game + 1 and j <= game)
        late = sorted(n for n, j, w in changes if j == game + 1 and w is None)
        try:
            following = next_seating(
                seating,
                winners,
                movement=drive.movement,  # type: ignore[arg-type]  # one of Drive.Movement
                withdrawn=withdrawn,
                late=late,
                sit_out_last=drive.sit_out_last,
            )
        except MovementError as error:
            raise ServiceError(error.code, error.message) from None
        active = set(following.table_of())
        problems = check_invariants(following, active)
        if problems:  # the movement is exercised by tests; this stops a broken night cold
            raise ServiceError("invariant_broken", "; ".join(problems), status=500)
        current.finished_at = timezone.now()
        current.save(update_fields=["finished_at"])
        new_game = game_open(drive=drive, number=game + 1, seating=following)
        audit(
            drive,
            actor,
            "game.advance",
            subject=f"game {game + 1}",
            new={"withdrawn": withdrawn, "late": late, "tables": len(following.tables)},
        )
        backup_after_commit(f"{drive.slug}-game-{game + 1}")  # the hall server's copy
    return 201, new_game


def _listing(numbers: list[int]) -> str:
    """The first 30 tables' numbers, and how many more: "1, 2, 3" or "1, …, 30 and 12 more"."""
    numbers = sorted(numbers)
    shown = ", ".join(str(n) for n in numbers[:30])
    if len(numbers) <= 30:
        return shown
    return gettext("%(tables)s and %(count)s more") % {"tables": shown, "count": len(numbers) - 30}


# --- a table's call to the desk -----------------------------------------------------------------


def _call_changed(drive: Drive, call: TableCall) -> None:
    """What a call's change moves, in its transaction: the drive's version (the desk grid, the
    dashboard and the projector poll it) but not its structure, and, once committed, the
    table's phone's poll key, with the table's page and the desk told at once."""
    call.updated_at = timezone.now()
    call.save(update_fields=["state", "answered_at", "closed_at", "updated_at"])
    cards_forget([("table", call.table_id)], drive.pk)


def call_open(
    *, drive: Drive, game: Any, table: Any, reason: Any = None, actor: Actor
) -> TableCall:
    """A table asks for the desk (its phone's button), with the players' optional words.
    Only the game in play, at a table seated in it (422 ``no_such_table``,
    ``game_not_in_play``); one call a table at a time: while its last call is open or answered
    another is refused (409 ``call_open``, nothing written)."""
    words = inputs.CALL_REASON.check(reason) or ""
    try:
        with transaction.atomic():
            locked = lock_drive(drive, shared=True)
            require_open(locked)
            found_game, seat = seat_for(locked, game, table, lock=True)
            if found_game.number != locked.current_game:
                raise ServiceError(
                    "game_not_in_play",
                    gettext(
                        "Game %(game)s is not the game in play: call the desk from game %(now)s."
                    )
                    % {"game": found_game.number, "now": locked.current_game},
                    game=found_game.number,
                )
            waiting = TableCall.objects.filter(table_id=seat.table_id).exclude(
                state=TableCall.State.CLOSED
            )
            if waiting.exists():
                raise _call_already_open(seat.table.number)
            call = TableCall.objects.create(
                drive=locked,
                game=found_game,
                seat=seat,
                table_id=seat.table_id,
                reason=words,
                channel=actor.channel,
                couple=actor.couple,
            )
            audit(
                locked,
                actor,
                "call.open",
                subject=f"game {found_game.number} table {seat.table.number}",
                new={"call": call.pk, "reason": words},
                changed=Change.RESULT,
            )
            cards_forget([("table", seat.table_id)], locked.pk)
    except IntegrityError:
        # Another call from this table was stored between our look and our write (only
        # without the seat's lock): the same answer as if it had been seen.
        raise _call_already_open(table) from None
    return call


def _call_already_open(table: Any) -> Conflict:
    return Conflict(
        "call_open",
        gettext("Table %(table)s has already called the desk: the desk knows and will come.")
        % {"table": table},
    )


def _call_for(drive: Drive, call_id: Any) -> TableCall:
    """The drive's call ``call_id``, locked (after the drive's lock); 404 ``no_such_call``."""
    found = None
    if (
        isinstance(call_id, int)
        and not isinstance(call_id, bool)
        and 0 < call_id <= inputs.NUMBER_MAX
    ):
        calls = TableCall.objects.select_related("table", "game").filter(drive=drive, pk=call_id)
        if race.locking():
            calls = calls.select_for_update(of=("self",))
        found = calls.first()
    if found is None:
        raise NotFound("no_such_call", gettext("This drive has no such call."))
    return found


def call_answer(*, drive: Drive, call: Any, actor: Actor) -> TableCall:
    """The desk says it is on its way: the table's phone shows it. Answering an answered call
    again writes nothing; a closed call cannot be answered (409 ``call_closed``)."""
    with transaction.atomic():
        locked = lock_drive(drive, shared=True)
        require_open(locked)
        found = _call_for(locked, call)
        if found.state == TableCall.State.CLOSED:
            raise Conflict("call_closed", gettext("This call is closed already."))
        if found.state == TableCall.State.ANSWERED:
            return found
        found.state = TableCall.State.ANSWERED
        found.answered_at = timezone.now()
        _call_changed(locked, found)
        audit(
            locked,
            actor,
            "call.answer",
            subject=f"game {found.game.number} table {found.table.number}",
            old={"state": TableCall.State.OPEN},
            new={"call": found.pk, "state": TableCall.State.ANSWERED},
            changed=Change.RESULT,
        )
    return found


def call_close(*, drive: Drive, call: Any, actor: Actor) -> TableCall:
    """The desk has been to the table: the call is closed, and the table may call again.
    Closing a closed call again writes nothing."""
    with transaction.atomic():
        locked = lock_drive(drive, shared=True)
        require_open(locked)
        found = _call_for(locked, call)
        if found.state == TableCall.State.CLOSED:
            return found
        before = found.state
        found.state = TableCall.State.CLOSED
        found.closed_at = timezone.now()
        _call_changed(locked, found)
        audit(
            locked,
            actor,
            "call.close",
            subject=f"game {found.game.number} table {found.table.number}",
            old={"state": before},
            new={"call": found.pk, "state": TableCall.State.CLOSED},
            changed=Change.RESULT,
        )
    return found
