"""Starting, reading and playing practice games: the one way in for the API and the page.

Each move reads the game under a row lock, lets ``practice.table`` judge and apply it, and
writes the new state in the same transaction: a refused move changes nothing. Games expire a
day after their last move (:data:`practice.models.LIFETIME`); an unknown or expired id is
404 ``not_found``. Starting games is limited per address (``PRACTICE_GAMES_PER_HOUR``, 10 by
default; counted like the other limits of ``drives.ratelimit``): past it, 429 ``rate_limited``
with ``retry_after``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from drives import ratelimit
from drives.errors import NotFound, ServiceError
from drives.rules_words import house_rules
from practice import table, words
from practice.models import PracticeGame, expiry

WINDOW = 60 * 60


class RateLimited(ServiceError):
    status = 429


def _refused(error: table.TableError, game: dict[str, Any] | None = None) -> ServiceError:
    led = ""
    if game is not None and game.get("trick"):
        led = game["trick"][0]["card"]
    if error.switch:
        message = words.rule_refusal(error.code, error.switch)
        return ServiceError(
            error.code,
            message,
            status=error.status,
            rule=error.rule,
            field="rules",
            switch=error.switch,
        )
    return ServiceError(
        error.code, words.refusal(error.code, led=led), status=error.status, rule=error.rule
    )


def _count(request: HttpRequest) -> ratelimit.Count:
    limit = int(getattr(settings, "PRACTICE_GAMES_PER_HOUR", 10))
    return ratelimit.Count("practice", ratelimit.client_ip(request), limit, WINDOW)


def game_start(
    request: HttpRequest,
    ruleset: str,
    mode: str = "partners",
    bots: str = "heuristic",
    rules: Mapping[str, Any] | None = None,
    *,
    partner: str | None = None,
    opponents: str | None = None,
) -> PracticeGame:
    """A new game for this address (rate-limited), dealt and played up to your decision;
    ``bots`` the computer players' strength (``heuristic`` or ``beginner``), or ``partner``
    and ``opponents`` each a level (``practice.table.LEVELS_OFFERED``), ``rules`` the
    house-rule switches (a refused one is 422 naming it: ``switch``, ``field: rules``). The
    seed is the table's own, never the caller's."""
    try:
        state = table.start(ruleset, mode, None, bots, rules, partner=partner, opponents=opponents)
    except table.TableError as error:
        raise _refused(error) from None
    count = _count(request)
    wait = count.wait(request)
    if wait is not None:
        raise RateLimited(
            "rate_limited",
            _("Too many practice games from this address: try again in %(minutes)s minutes.")
            % {"minutes": ratelimit.minutes(wait)},
            retry_after=wait,
        )
    count.add(request)
    return PracticeGame.objects.create(state=state)


def _alive(game_id: uuid.UUID | str) -> QuerySet[PracticeGame]:
    return PracticeGame.objects.filter(pk=game_id, expires_at__gt=timezone.now())


def _missing() -> NotFound:
    return NotFound("not_found", str(words.REFUSALS["not_found"]))


def game_get(game_id: uuid.UUID | str) -> PracticeGame:
    game = _alive(game_id).first()
    if game is None:
        raise _missing()
    return game


def _move(game_id: uuid.UUID | str, apply: Any) -> PracticeGame:
    with transaction.atomic():
        game = _alive(game_id).select_for_update().first()
        if game is None:
            raise _missing()
        state = game.state
        try:
            apply(state)
        except table.TableError as error:
            raise _refused(error, game.state) from None
        game.state = state
        game.expires_at = expiry()
        game.save(update_fields=["state", "expires_at", "updated_at"])
    return game


def game_play(game_id: uuid.UUID | str, card: str) -> PracticeGame:
    """You play ``card``; the computer players play up to your next decision."""
    return _move(game_id, lambda state: table.play(state, card))


def game_rob(game_id: uuid.UUID | str, discard: str | None, announce: bool = False) -> PracticeGame:
    """Rob the turn-up throwing ``discard`` away (None: decline; ``announce``: decline and
    announce the ace, under ``unannounced_ace_lowest``), or the dealer's discard."""
    return _move(game_id, lambda state: table.rob(state, discard, announce))


def game_bid(game_id: uuid.UUID | str, amount: int | None) -> PracticeGame:
    """Auction: you bid ``amount`` or pass (None); the others bid, name trump and play."""
    return _move(game_id, lambda state: table.bid(state, amount))


def game_trump(game_id: uuid.UUID | str, suit: str) -> PracticeGame:
    """Auction: you won the bidding and name trump ``suit``."""
    return _move(game_id, lambda state: table.name(state, suit))


def game_draw(game_id: uuid.UUID | str, discards: list[str]) -> PracticeGame:
    """Auction with a kitty: throw ``discards`` away and be dealt back up to five."""
    return _move(game_id, lambda state: table.draw(state, discards))


def game_view(game: PracticeGame) -> dict[str, Any]:
    """The state (``table.view``) with the computer players' reasons in words, and the rules
    in words (``house_rules``: the preset's name, then each switch that differs from it)."""
    view = words.translate_view(table.view(game.state, str(game.id)))
    view["house_rules"] = [str(line) for line in house_rules(view["ruleset"], view["rules"])]
    return view
