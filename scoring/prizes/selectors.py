"""Reads of the prizes (docs/rules.md §8–§10): the prize set-up, the prize table (each prize place
with its couples: awarded, tied or left empty; the booby prize; the jackpot; the cookie jar),
the ties with everything recorded about them, and the cookie jar with what it carried in.

Places come from the engine (``engine.prizes``) over the final wins of
``scoring.selectors.couple_records``; withdrawn couples take none. Until the organizer opens
the ties (``scoring.prizes.services.prizes_open_ties``) the table is a preview computed from the
standings; afterwards it shows the stored ties and awards.

The cookie jar's carried-in money is *computed*, not stored: walking the club's drives in
order (date, then id), a drive's jar that was drawn without a winner passes its whole pot
(what it carried in included) to the next drive; a drive whose jar is off passes on what it
carried in; a drive whose jar is on and not drawn yet holds its pot (it passes it on as
unclaimed). The draw freezes the pot it had (``CookieJarDraw.pot`` and ``carried_in``).

The cookie jar is on when the set-up says so *or* when any couple bought in at the door
(``jar_on``): couples who paid into a jar have one, whatever the set-up was left at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from drives.models import Couple, Drive, Seat
from engine.prizes import (
    PlaceGroup,
    booby_couples,
    category_winners,
    jackpot_winners,
    place_groups,
    split_money,
)
from scoring.models import (
    Award,
    CookieJarDraw,
    CutCard,
    PlayoffMatch,
    PrizeCategory,
    PrizePlace,
    PrizeSetup,
    Result,
    Tie,
    TieChoice,
)
from scoring.prizes.takings import share, takings
from scoring.selectors import LOSS, SIT_OUT_WIN, WIN, CoupleRecord, couple_records

ZERO = Decimal("0.00")


def setup_of(drive: Drive) -> PrizeSetup:
    """The drive's prize set-up; an unsaved one with the defaults if none was stored yet."""
    found = PrizeSetup.objects.filter(drive=drive).first()
    return found if found is not None else PrizeSetup(drive=drive)


def prize_of(
    places: dict[int, PrizePlace],
    place: int,
    setup: PrizeSetup | None = None,
    bases: dict[str, Decimal] | None = None,
) -> dict[str, Any]:
    """A place's prize; a share with its amount (fixed once the ties are opened, until then
    what the night's takings make it now)."""
    row = places.get(place)
    if row is None:
        return {"amount": None, "description": ""}
    return prize_row(row.amount, row.description, row.share_of, row.percent, setup, bases)


def prize_row(
    amount: Decimal | None,
    description: str,
    share_of: str,
    percent: int | None,
    setup: PrizeSetup | None,
    bases: dict[str, Decimal] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"amount": _money(amount), "description": description}
    if share_of and percent is not None:
        if amount is None and setup is not None and bases is not None:
            out["amount"] = _money(share(bases[share_of], percent, setup.share_rounding))
        out |= {"share_of": share_of, "percent": percent}
    return out


def resolved(
    amount: Decimal | None, share_of: str, percent: int | None, setup: PrizeSetup, drive: Drive
) -> Decimal | None:
    """A prize's money: its amount, or its share of the night's takings now."""
    if amount is not None or not share_of or percent is None:
        return amount
    return share(takings(drive)[share_of], percent, setup.share_rounding)


def half_time_prize(
    setup: PrizeSetup, bases: dict[str, Decimal] | None = None
) -> dict[str, Any] | None:
    if setup.half_time_after is None:
        return None
    return prize_row(
        setup.half_time_amount,
        setup.half_time_description,
        setup.half_time_share_of,
        setup.half_time_percent,
        setup,
        bases,
    )


def _money(amount: Decimal | None) -> str | None:
    return None if amount is None else str(Decimal(amount).quantize(Decimal("0.01")))


def setup_view(drive: Drive) -> dict[str, Any]:
    setup = setup_of(drive)
    bought = bought_in(drive)
    places = {p.place: p for p in PrizePlace.objects.filter(drive=drive)}
    bases = takings(drive)
    half_time = half_time_prize(setup, bases)
    return {
        "prize_places": setup.prize_places,
        "prizes": [prize_of(places, n, setup, bases) for n in range(1, setup.prize_places + 1)],
        "booby": setup.booby,
        "booby_prize": {
            "amount": _money(setup.booby_amount),
            "description": setup.booby_description,
        },
        "booby_late_couples": setup.booby_late_couples,
        "cookie_jar": jar_on(setup, bought),
        "cookie_jar_k": setup.cookie_jar_k,
        "buy_in": _money(setup.buy_in),
        "bought_in": bought,
        "jackpot_threshold": setup.jackpot_threshold,
        "jackpot_amount": _money(setup.jackpot_amount),
        "cut_ace_high": setup.cut_ace_high,
        "cut_high_wins": setup.cut_high_wins,
        "house_rule": setup.house_rule,
        "one_prize_per_couple": setup.one_prize_per_couple,
        "share_rounding": _money(setup.share_rounding),
        "half_time": (
            None if half_time is None else {"after_game": setup.half_time_after} | half_time
        ),
        "categories": [
            category_row(c, setup, bases)
            for c in PrizeCategory.objects.filter(drive=drive).order_by("position")
        ],
        "takings": {kind: _money(total) for kind, total in bases.items()},
        "ranking": drive.ranking,
        "currency": drive.currency,
    }


def category_row(
    category: PrizeCategory, setup: PrizeSetup | None, bases: dict[str, Decimal] | None
) -> dict[str, Any]:
    """A named prize: its name, rule (and ``after_game``) and prize (a share with its amount)."""
    return {
        "name": category.name,
        "rule": category.rule,
        "after_game": category.after_game,
    } | prize_row(
        category.amount, category.description, category.share_of, category.percent, setup, bases
    )


def bought_in(drive: Drive) -> int:
    """How many couples bought into the cookie jar at the door."""
    return Couple.objects.filter(drive=drive, cookie_jar=True).count()


def jar_on(setup: PrizeSetup, bought: int) -> bool:
    """The cookie jar is on when the set-up says so or any couple bought in."""
    return setup.cookie_jar or bought > 0


def night_over(drive: Drive) -> bool:
    """The last game is in play (or the drive closed) and every table of it has an accepted
    result."""
    return game_over(drive, drive.games)


def game_over(drive: Drive, number: int) -> bool:
    """Game ``number`` is played out: a later game is in play, or it is in play (or the drive
    closed) and every table of it has an accepted result."""
    if drive.is_closed:
        return True
    if drive.current_game == 0 or drive.current_game < number:
        return False
    if drive.current_game > number:
        return True
    full = Seat.objects.filter(
        game__drive=drive,
        game__number=drive.current_game,
        stays__isnull=False,
        arrives__isnull=False,
    )
    done = Result.objects.filter(seat__in=full, state=Result.State.ACCEPTED)
    return full.count() == done.count()


@dataclass
class Standing:
    """What the prizes are computed from."""

    records: list[CoupleRecord]
    wins: dict[int, int] = field(default_factory=dict)
    played: dict[int, int] = field(default_factory=dict)
    won_games: dict[int, list[int]] = field(default_factory=dict)
    withdrawn: set[int] = field(default_factory=set)
    cookie_jar: list[int] = field(default_factory=list)
    #: Each couple's games with a result, by number: True won (a sit-out credited as a win
    #: too), False lost; a game it sat out uncredited or still waiting is not there.
    games: dict[int, dict[int, bool]] = field(default_factory=dict)

    @classmethod
    def of(cls, drive: Drive) -> Standing:
        records = couple_records(drive)
        out = cls(records)
        for r in records:
            n = r.couple.number
            out.wins[n], out.played[n], out.won_games[n] = r.wins, r.played, r.won_games
            out.games[n] = {
                g: mark != LOSS for g, mark in r.grid.items() if mark in (WIN, SIT_OUT_WIN, LOSS)
            }
            if r.couple.withdrawn:
                out.withdrawn.add(n)
            if r.couple.cookie_jar:
                out.cookie_jar.append(n)
        return out


@dataclass
class Computed:
    """The prizes as the engine computes them from the standings (before any tie is settled).
    ``half_time``: the best couples after the half-time game (with their wins then), none
    until that game is played out."""

    groups: list[PlaceGroup]
    booby: tuple[int, ...]
    jackpot: tuple[int, ...]
    half_time: PlaceGroup | None = None
    #: Each named prize (by position): the couples with the best score, and that score.
    categories: dict[int, tuple[int, ...]] = field(default_factory=dict)
    scores: dict[int, int] = field(default_factory=dict)


def half_time_wins(standing: Standing, after: int) -> dict[int, int]:
    """Each couple's wins in games 1 to ``after``."""
    return {n: sum(1 for g in games if g <= after) for n, games in standing.won_games.items()}


def compute(
    drive: Drive,
    setup: PrizeSetup,
    standing: Standing,
    categories: Sequence[PrizeCategory] | None = None,
) -> Computed:
    """The places, then (with ``one_prize_per_couple``, among the couples in no place) the
    half-time prize, then the named prizes in their order, then the booby prize (never a
    placed couple; with one prize a couple, not a half-time or named prize's couple either): a
    couple in two prizes keeps the earlier in that order and the next couple moves up in the
    other."""
    if categories is None:
        categories = list(PrizeCategory.objects.filter(drive=drive).order_by("position"))
    groups = place_groups(
        standing.wins,
        prize_places=setup.prize_places,
        ranking=drive.ranking,  # type: ignore[arg-type]  # one of Drive.Ranking
        withdrawn=standing.withdrawn,
    )
    in_groups = {c for g in groups for c in g.couples}
    half: PlaceGroup | None = None
    if setup.half_time_after is not None and game_over(drive, setup.half_time_after):
        left_out = set(standing.withdrawn)
        if setup.one_prize_per_couple:
            left_out |= in_groups
        best = place_groups(
            half_time_wins(standing, setup.half_time_after),
            prize_places=1,
            ranking="dense",
            withdrawn=left_out,
        )
        half = best[0] if best else None
    taken = set(in_groups) | (set(half.couples) if half is not None else set())
    named: dict[int, tuple[int, ...]] = {}
    scores: dict[int, int] = {}
    for category in categories:
        winners, score = category_winners(
            category.rule,
            standing.games,
            after=category.after_game,
            withdrawn=standing.withdrawn,
            exclude=taken if setup.one_prize_per_couple else (),
        )
        named[category.position], scores[category.position] = winners, score
        taken |= set(winners)
    booby: tuple[int, ...] = ()
    if setup.booby:
        exclude = set(in_groups)
        if setup.one_prize_per_couple:
            exclude |= taken
        booby = booby_couples(
            standing.wins,
            standing.played,
            games=drive.games,
            withdrawn=standing.withdrawn,
            exclude=exclude,
            every_game=not setup.booby_late_couples,
        )
    jackpot: tuple[int, ...] = ()
    if setup.jackpot_threshold is not None and setup.jackpot_amount is not None:
        jackpot = jackpot_winners(
            standing.wins, setup.jackpot_threshold, withdrawn=standing.withdrawn
        )
    return Computed(groups, booby, jackpot, half, named, scores)


def _award_row(award: Award) -> dict[str, Any]:
    return {
        "couple": award.couple.number,
        "amount": _money(award.amount),
        "description": award.description,
        "how": award.how,
        "tie": award.tie_id,
    }


def _entry(
    prize: dict[str, Any],
    couples: Sequence[int],
    wins: int | None,
    tie: Tie | None,
    awards: list[Award],
    preview_how: str = "direct",
) -> dict[str, Any]:
    """One prize: its status (awarded, tie, empty), its couples, and its awards."""
    if awards:
        status = "awarded"
        rows = [_award_row(a) for a in awards]
    elif not couples or (tie is not None and tie.state == "settled" and tie.method == "empty"):
        status, rows = "empty", []
    elif len(couples) == 1 and tie is None:
        status = "awarded"
        rows = [
            {
                "couple": couples[0],
                "amount": prize.get("amount"),
                "description": prize.get("description", ""),
                "how": preview_how,
                "tie": None,
            }
        ]
    else:
        status, rows = "tie", []
    return {
        "prize": prize,
        "couples": list(couples),
        "wins": wins,
        "status": status,
        "tie": tie.pk if tie is not None else None,
        "awards": rows,
    }


def prizes_before_play(drive: Drive) -> bool:
    """Whether no result counts yet (none accepted): the standings are all 0 wins, so the
    prize table has nothing to say but its set-up, the places and what each pays."""
    return not Result.objects.filter(game__drive=drive, state=Result.State.ACCEPTED).exists()


def prize_table(drive: Drive) -> dict[str, Any]:
    """Every prize of the drive: the places (awarded to one couple, tied, or explicitly empty
    when there are fewer couples than places), the booby prize, the jackpot and the cookie
    jar. ``opened`` says whether the ties were opened (the awards are then stored ones)."""
    setup = setup_of(drive)
    standing = Standing.of(drive)
    categories = list(PrizeCategory.objects.filter(drive=drive).order_by("position"))
    computed = compute(drive, setup, standing, categories)
    places = {p.place: p for p in PrizePlace.objects.filter(drive=drive)}
    bases = takings(drive)
    ties = list(Tie.objects.filter(drive=drive).order_by("id"))
    awards = list(Award.objects.filter(drive=drive).select_related("couple"))
    tie_of_place: dict[int, Tie] = {}
    for tie in ties:
        if tie.kind == Tie.Kind.PLACE:
            for p in tie.places:
                if tie.state != Tie.State.SETTLED or tie.method in ("split", "empty"):
                    tie_of_place[p] = tie
                else:
                    tie_of_place.setdefault(p, tie)
    rows = []
    for place in range(1, setup.prize_places + 1):
        group = next((g for g in computed.groups if place in g.prizes), None)
        place_tie = tie_of_place.get(place)
        got = [a for a in awards if a.kind == Award.Kind.PLACE and a.place == place]
        if not got and place_tie is not None and place_tie.method == "split":
            got = [a for a in awards if a.tie_id == place_tie.pk]
        entry = _entry(
            prize_of(places, place, setup, bases),
            group.couples if group else (),
            group.wins if group else None,
            place_tie,
            got,
        )
        if group is None:
            entry["reason"] = "fewer couples than prize places"
        rows.append({"place": place} | entry)
    by_key = {t.key: t for t in ties}
    booby: dict[str, Any] = {"enabled": setup.booby}
    if setup.booby:
        # The rule (docs/rules.md §8): only couples who played every game, unless the organizer let
        # the late ones in; the couples it leaves out are named, not silently passed over.
        booby["every_game"] = not setup.booby_late_couples
        booby["games"] = drive.games
        prized = {c for g in computed.groups for c in g.couples}
        booby["left_out"] = [
            {
                "couple": r.couple.number,
                "name": f"{r.couple.player1} & {r.couple.player2}",
                "played": r.played,
                "wins": r.wins,
            }
            for r in sorted(standing.records, key=lambda r: r.couple.number)
            if booby["every_game"]
            and r.played < drive.games
            and not r.couple.withdrawn
            and r.couple.number not in prized
        ]
        prize = {"amount": _money(setup.booby_amount), "description": setup.booby_description}
        fewest = standing.wins[computed.booby[0]] if computed.booby else None
        booby |= _entry(
            prize,
            computed.booby,
            fewest,
            by_key.get("booby"),
            [a for a in awards if a.kind == Award.Kind.BOOBY],
        )
    half_time: dict[str, Any] = {"enabled": setup.half_time_after is not None}
    if setup.half_time_after is not None:
        played_out = game_over(drive, setup.half_time_after)
        half_time |= {"after_game": setup.half_time_after, "played_out": played_out}
        group = computed.half_time
        half_time |= _entry(
            half_time_prize(setup, bases) or {},
            group.couples if group else (),
            group.wins if group else None,
            by_key.get("half-time"),
            [a for a in awards if a.kind == Award.Kind.HALF_TIME],
        )
        if not played_out:
            half_time["status"] = "pending"
    named = []
    for category in categories:
        couples = computed.categories.get(category.position, ())
        prize = prize_row(
            category.amount, category.description, category.share_of, category.percent, setup, bases
        )
        named.append(
            {
                "position": category.position,
                "name": category.name,
                "rule": category.rule,
                "after_game": category.after_game,
                "score": computed.scores.get(category.position) or None,
            }
            | _entry(
                prize,
                couples,
                None,
                by_key.get(f"category:{category.position}"),
                [
                    a
                    for a in awards
                    if a.kind == Award.Kind.CATEGORY and a.place == category.position
                ],
            )
        )
    jackpot: dict[str, Any] = {
        "enabled": setup.jackpot_threshold is not None and setup.jackpot_amount is not None,
        "threshold": setup.jackpot_threshold,
        "amount": _money(setup.jackpot_amount),
        "couples": list(computed.jackpot),
        "shares": {},
    }
    if computed.jackpot and setup.jackpot_amount is not None:
        shares = split_money(setup.jackpot_amount, computed.jackpot)
        jackpot["shares"] = {str(c): _money(s) for c, s in shares.items()}
    return {
        "currency": drive.currency,
        "ranking": drive.ranking,
        "night_over": night_over(drive),
        "opened": bool(ties) or bool(awards),
        "places": rows,
        "one_prize_per_couple": setup.one_prize_per_couple,
        "takings": {kind: _money(total) for kind, total in bases.items()},
        "booby": booby,
        "half_time": half_time,
        "categories": named,
        "jackpot": jackpot,
        "cookie_jar": cookie_jar_view(drive, standing=standing, setup=setup),
    }


# --- ties ----------------------------------------------------------------------------------------


def _who(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def tie_view(tie: Tie) -> dict[str, Any]:
    """A tie with each choice (asked, applied, who, when), the method, the cut rounds with
    their cards, the play-off matches and the awards."""
    choices = TieChoice.objects.filter(tie=tie).select_related("couple", "user")
    cards = CutCard.objects.filter(tie=tie).select_related("couple", "user")
    matches = PlayoffMatch.objects.filter(tie=tie).select_related("a", "b", "winner", "user")
    rounds: dict[int, dict[str, Any]] = {}
    for card in cards:
        row = rounds.setdefault(
            card.round,
            {
                "round": card.round,
                "cards": {},
                "seed": card.seed,
                "by": _who(card.user),
                "channel": card.channel,
                "at": card.at.isoformat(),
            },
        )
        row["cards"][str(card.couple.number)] = card.card
    name = None
    if tie.kind == Tie.Kind.CATEGORY:
        found = PrizeCategory.objects.filter(drive_id=tie.drive_id, position=tie.places[0])
        name = found.values_list("name", flat=True).first()
    return {
        "id": tie.pk,
        "key": tie.key,
        "kind": tie.kind,
        "name": name,
        "places": tie.places,
        "couples": tie.couples,
        "state": tie.state,
        "method": tie.method or None,
        "playing": tie.playing,
        "forfeits": tie.forfeits,
        "winner": tie.winner,
        "decided_by": _who(tie.decided_by),
        "decided_channel": tie.decided_channel or None,
        "decided_at": tie.decided_at.isoformat() if tie.decided_at else None,
        "choices": [
            {
                "couple": c.couple.number,
                "asked": c.asked,
                "choice": c.choice,
                "by": _who(c.user),
                "channel": c.channel,
                "at": c.at.isoformat(),
            }
            for c in choices
        ],
        "cut_rounds": [rounds[n] for n in sorted(rounds)],
        "matches": [
            {
                "round": m.round,
                "match": [m.a.number, m.b.number] if m.b else [m.a.number],
                "bye": m.b is None,
                "winner": m.winner.number if m.winner else None,
                "points": (
                    [m.winner_points, m.loser_points] if m.winner_points is not None else None
                ),
                "verdict": m.verdict or None,
                "by": _who(m.user),
                "channel": m.channel or None,
                "at": m.at.isoformat() if m.at else None,
            }
            for m in matches
        ],
        "awards": [_award_row(a) for a in tie.awards.select_related("couple")],
    }


def ties_list(drive: Drive) -> list[dict[str, Any]]:
    return [tie_view(t) for t in Tie.objects.filter(drive=drive).select_related("decided_by")]


# --- cookie jar ----------------------------------------------------------------------------------


def carried_in(drive: Drive) -> Decimal:
    """What the cookie jar carries in from the club's previous drives (see the module text)."""
    earlier = list(
        Drive.objects.filter(club_id=drive.club_id)
        .exclude(pk=drive.pk)
        .filter(date__lte=drive.date)
        .order_by("date", "id")
    )
    earlier = [d for d in earlier if (d.date, d.pk) < (drive.date, drive.pk)]
    if not earlier:
        return ZERO
    ids = [d.pk for d in earlier]
    setups = {s.drive_id: s for s in PrizeSetup.objects.filter(drive_id__in=ids)}
    draws = {d.drive_id: d for d in CookieJarDraw.objects.filter(drive_id__in=ids)}
    entrants: dict[int, int] = {}
    for drive_id in Couple.objects.filter(drive_id__in=ids, cookie_jar=True).values_list(
        "drive_id", flat=True
    ):
        entrants[drive_id] = entrants.get(drive_id, 0) + 1
    carry = ZERO
    for d in earlier:
        setup = setups.get(d.pk) or PrizeSetup(drive=d)
        if not jar_on(setup, entrants.get(d.pk, 0)):
            continue
        draw = draws.get(d.pk)
        if draw is None:
            carry = carry + setup.buy_in * entrants.get(d.pk, 0)
        elif draw.winners:
            carry = ZERO
        else:
            carry = draw.pot
    return Decimal(carry).quantize(Decimal("0.01"))


def cookie_jar_view(
    drive: Drive, *, standing: Standing | None = None, setup: PrizeSetup | None = None
) -> dict[str, Any]:
    """The jar: entrants, pot (buy-ins and what it carried in), the drawn games (with the seed,
    or "hat"), the winners, and what it carries over to the club's next drive; on when the
    set-up says so or any couple bought in (``needs_buy_in``: couples bought in and no buy-in
    is set yet)."""
    setup = setup or setup_of(drive)
    if not setup.cookie_jar:
        bought = len(standing.cookie_jar) if standing is not None else bought_in(drive)
        if not jar_on(setup, bought):
            return {"enabled": False}
    draw = CookieJarDraw.objects.filter(drive=drive).select_related("user").first()
    if draw is not None:
        entrants, pot, carried = list(draw.entrants), draw.pot, draw.carried_in
    else:
        standing = standing or Standing.of(drive)
        entrants = sorted(standing.cookie_jar)
        carried = carried_in(drive)
        pot = setup.buy_in * len(entrants) + carried
    out: dict[str, Any] = {
        "enabled": True,
        "k": setup.cookie_jar_k,
        "buy_in": _money(setup.buy_in),
        "entrants": entrants,
        "carried_in": _money(carried),
        "pot": _money(pot),
        "drawn": None,
        "winners": [],
        "status": "not-drawn",
        "needs_buy_in": draw is None and bool(entrants) and setup.buy_in == 0,
        "carried_over": None,
        "tie": None,
        "awards": [],
    }
    if draw is not None:
        out["drawn"] = {
            "games": draw.games,
            "method": draw.method,
            "seed": draw.seed,
            "by": _who(draw.user),
            "channel": draw.channel,
            "at": draw.at.isoformat(),
        }
        out["winners"] = draw.winners
        if not draw.winners:
            out["status"], out["carried_over"] = "carried-over", _money(draw.pot)
        else:
            tie = Tie.objects.filter(drive=drive, key="cookie-jar").first()
            awards = Award.objects.filter(drive=drive, kind=Award.Kind.COOKIE_JAR)
            out["awards"] = [_award_row(a) for a in awards.select_related("couple")]
            out["tie"] = tie.pk if tie else None
            out["status"] = "awarded" if out["awards"] else "tie"
            if tie is not None and tie.method == "empty":
                out["status"] = "empty"
    return out


def prizes_export(drive: Drive) -> dict[str, Any]:
    """The export's ``prize_setup`` (the stored set-up with every prize place, null when none
    was stored), ``prizes`` (the prize table), ``ties`` (each with its ``created_at`` and every
    ``cut_cards`` row besides the views' fields), ``awards`` (every award, its tie by key) and
    ``cookie_jar``: everything ``scoring.records.restore`` needs to bring the prizes back."""
    table = prize_table(drive)
    prizes: list[dict[str, Any]] = [{"kind": "place"} | row for row in table["places"]]
    if table["booby"]["enabled"]:
        prizes.append({"kind": "booby"} | table["booby"])
    if table["half_time"]["enabled"]:
        prizes.append({"kind": "half-time"} | table["half_time"])
    prizes += [{"kind": "category"} | row for row in table["categories"]]
    if table["jackpot"]["enabled"]:
        prizes.append({"kind": "jackpot"} | table["jackpot"])
    ties = []
    for tie in Tie.objects.filter(drive=drive).select_related("decided_by"):
        cards = CutCard.objects.filter(tie=tie).select_related("couple", "user")
        ties.append(
            tie_view(tie)
            | {
                "created_at": tie.created_at.isoformat(),
                "cut_cards": [
                    {
                        "round": c.round,
                        "couple": c.couple.number,
                        "card": c.card,
                        "seed": c.seed,
                        "by": _who(c.user),
                        "channel": c.channel,
                        "at": c.at.isoformat(),
                    }
                    for c in cards.order_by("round", "id")
                ],
            }
        )
    awards = Award.objects.filter(drive=drive).select_related("couple", "tie", "user")
    return {
        "prize_setup": _setup_export(drive),
        "prizes": prizes,
        "ties": ties,
        "awards": [
            {
                "kind": a.kind,
                "place": a.place,
                "couple": a.couple.number,
                "amount": _money(a.amount),
                "description": a.description,
                "how": a.how,
                "tie": a.tie.key if a.tie else None,
                "by": _who(a.user),
                "channel": a.channel or None,
                "at": a.at.isoformat(),
            }
            for a in awards.order_by("id")
        ],
        "cookie_jar": table["cookie_jar"],
    }


def _setup_export(drive: Drive) -> dict[str, Any] | None:
    setup = PrizeSetup.objects.filter(drive=drive).first()
    if setup is None:
        return None
    return {
        "prize_places": setup.prize_places,
        "places": [
            {
                "place": p.place,
                "amount": _money(p.amount),
                "description": p.description,
                "share_of": p.share_of,
                "percent": p.percent,
            }
            for p in PrizePlace.objects.filter(drive=drive).order_by("place")
        ],
        "booby": setup.booby,
        "booby_amount": _money(setup.booby_amount),
        "booby_description": setup.booby_description,
        "booby_late_couples": setup.booby_late_couples,
        "cookie_jar": jar_on(setup, bought_in(drive)),
        "cookie_jar_k": setup.cookie_jar_k,
        "buy_in": _money(setup.buy_in),
        "jackpot_threshold": setup.jackpot_threshold,
        "jackpot_amount": _money(setup.jackpot_amount),
        "cut_ace_high": setup.cut_ace_high,
        "cut_high_wins": setup.cut_high_wins,
        "house_rule": setup.house_rule,
        "one_prize_per_couple": setup.one_prize_per_couple,
        "share_rounding": _money(setup.share_rounding),
        "half_time_after": setup.half_time_after,
        "half_time_amount": _money(setup.half_time_amount),
        "half_time_description": setup.half_time_description,
        "half_time_share_of": setup.half_time_share_of,
        "half_time_percent": setup.half_time_percent,
        "categories": [
            {
                "position": c.position,
                "name": c.name,
                "rule": c.rule,
                "after_game": c.after_game,
                "amount": _money(c.amount),
                "description": c.description,
                "share_of": c.share_of,
                "percent": c.percent,
            }
            for c in PrizeCategory.objects.filter(drive=drive).order_by("position")
        ],
        "updated_at": setup.updated_at.isoformat(),
    }


def prize_payouts(drive: Drive) -> list[dict[str, Any]]:
    """Every prize awarded in money, as the treasurer pays it: ``kind``, ``place``, ``couple``,
    ``amount``, for a named prize its ``name`` (else empty) and, for a share of the takings,
    ``share_of`` and ``percent`` (else empty)."""
    setup = setup_of(drive)
    shares = {
        p.place: (p.share_of, p.percent)
        for p in PrizePlace.objects.filter(drive=drive).exclude(share_of="")
    }
    half = (setup.half_time_share_of, setup.half_time_percent)
    named = {c.position: c for c in PrizeCategory.objects.filter(drive=drive)}
    out = []
    for award in (
        Award.objects.filter(drive=drive, amount__isnull=False)
        .select_related("couple")
        .order_by("kind", "place", "couple__number")
    ):
        share_of, percent = "", None
        if award.kind == Award.Kind.PLACE and award.place in shares:
            share_of, percent = shares[award.place]
        elif award.kind == Award.Kind.HALF_TIME and half[0]:
            share_of, percent = half
        category = named.get(award.place or 0) if award.kind == Award.Kind.CATEGORY else None
        if category is not None and category.share_of:
            share_of, percent = category.share_of, category.percent
        out.append(
            {
                "kind": award.kind,
                "place": award.place,
                "couple": award.couple.number,
                "amount": _money(award.amount),
                "name": category.name if category is not None else "",
                "share_of": share_of,
                "percent": percent,
            }
        )
    return out
