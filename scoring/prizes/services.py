"""Writes of the prizes (docs/rules.md §8–§10): the prize set-up, opening the ties at the end of
the night (and awarding the places nobody shares), each tied couple's choice, the decision,
the cut (cards recorded at the table, or drawn by the system from a recorded seed), the
play-off (a knock-out with byes, its games validated like any game), and the cookie jar draw.

The seed of a system draw (a cut, the cookie jar's games) is drawn here by ``new_seed``, never
chosen by a caller: it is recorded with the draw, shown and exported, so the draw can be
replayed through the engine (``engine.prizes.draw_cut``, ``draw_cookie_jar_games``) and checked.

Like every service: one transaction, the drive row locked (``drives.guards.lock_drive``), input
checked, an audit entry written, a ``ServiceError`` with a code for anything refused. The
rules themselves are the engine's (``engine.prizes``); this module stores what happened.

Competition ranking: a tie covering several prize places (1, 1, 3 → the two first-placed
couples cover prizes 1 and 2) is split over the combined money; settled by a cut or play-off,
the winner takes the first place covered and the others go on to a new tie for the rest
(a forfeit gives up the higher place only). A prize in kind cannot be split.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from drives import inputs
from drives.errors import Conflict, NotFound, ServiceError
from drives.guards import judge_points, lock_drive, require_open
from drives.models import Couple, Drive
from drives.services import SYSTEM, Actor, audit
from engine.cards import Card, CardError
from engine.prizes import (
    Bracket,
    PrizeError,
    TieDecision,
    cookie_jar_winners,
    decide_tie,
    draw_cookie_jar_games,
    draw_cut,
    judge_cut,
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
    Tie,
    TieChoice,
)
from scoring.prizes.selectors import (
    Standing,
    bought_in,
    carried_in,
    compute,
    jar_on,
    night_over,
    resolved,
)
from scoring.prizes.takings import share, takings

MAX_PLACES = inputs.MAX_PLACES
MAX_MONEY = inputs.MAX_MONEY
SETUP_FIELDS = (
    "prize_places",
    "prizes",
    "booby",
    "booby_prize",
    "booby_late_couples",
    "cookie_jar",
    "cookie_jar_k",
    "buy_in",
    "jackpot_threshold",
    "jackpot_amount",
    "cut_ace_high",
    "cut_high_wins",
    "house_rule",
    "one_prize_per_couple",
    "share_rounding",
    "half_time",
    "categories",
)
COOKIE_FIELDS = ("cookie_jar", "cookie_jar_k", "buy_in")
CUT_FIELDS = ("cut_ace_high", "cut_high_wins")


def _error(error: PrizeError, status: int = 422) -> ServiceError:
    return ServiceError(error.code, error.message, status=status, couples=list(error.couples))


# --- set-up --------------------------------------------------------------------------------------


def _setup(drive: Drive) -> PrizeSetup:
    setup, _ = PrizeSetup.objects.get_or_create(drive=drive)
    return setup


def _bad(field: str, message: str) -> ServiceError:
    return ServiceError("bad_field", message, field=field)


def _within_the_night(field: str, value: int | None, drive: Drive) -> None:
    """A number of games (``cookie_jar_k``, ``jackpot_threshold``) no more than the drive
    plays."""
    if value is not None and value > drive.games:
        raise _bad(
            field,
            gettext("%(field)s must be a whole number from %(low)s to %(high)s.")
            % {"field": field, "low": 1, "high": drive.games},
        )


def prize_setup_update(*, drive: Drive, actor: Actor = SYSTEM, **fields: Any) -> PrizeSetup:
    """Change the drive's prize set-up. Places, prizes, booby, jackpot and house rule are
    fixed once the ties are opened (409 prizes_opened); how a cut is won once the first card
    of a cut is recorded (409 cut_started); the cookie jar once drawn (409 cookie_jar_drawn)."""
    inputs.refuse_unknown(fields, SETUP_FIELDS)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        setup = _setup(drive)
        prize_fields = set(fields) - set(COOKIE_FIELDS) - set(CUT_FIELDS)
        if prize_fields and (
            Tie.objects.filter(drive=drive).exclude(kind=Tie.Kind.COOKIE_JAR).exists()
            or Award.objects.filter(drive=drive).exclude(kind=Award.Kind.COOKIE_JAR).exists()
        ):
            raise Conflict("prizes_opened", gettext("The ties are opened: the prizes are fixed."))
        if set(fields) & set(CUT_FIELDS) and CutCard.objects.filter(tie__drive=drive).exists():
            raise Conflict("cut_started", gettext("A cut has begun: how a cut is won is fixed."))
        if set(fields) & set(COOKIE_FIELDS) and CookieJarDraw.objects.filter(drive=drive).exists():
            raise Conflict("cookie_jar_drawn", gettext("The cookie jar is drawn: it is fixed."))
        old = _setup_dict(setup, drive)
        places = fields.get("prize_places", setup.prize_places)
        setup.prize_places = inputs.PRIZE_PLACES.check(places)
        if "prizes" in fields:
            cleaned = inputs.prizes_of(fields["prizes"])
            if len(cleaned) > setup.prize_places:
                raise _bad(
                    "prizes",
                    gettext("prizes is a list of at most %(prize_places)s prizes.")
                    % {"prize_places": setup.prize_places},
                )
            PrizePlace.objects.filter(drive=drive).delete()
            PrizePlace.objects.bulk_create(
                PrizePlace(
                    drive=drive,
                    place=i,
                    amount=prize.amount,
                    description=prize.description,
                    share_of=prize.share_of,
                    percent=prize.percent,
                )
                for i, prize in enumerate(cleaned, 1)
                if prize.amount is not None or prize.description or prize.share_of
            )
        else:
            PrizePlace.objects.filter(drive=drive, place__gt=setup.prize_places).delete()
        for name in inputs.PRIZE_SWITCHES:
            if name in fields:
                setattr(setup, name, inputs.PRIZE_SWITCHES[name].check(fields[name]))
        if "cookie_jar" in fields and not setup.cookie_jar:
            bought = bought_in(drive)
            if bought:
                raise ServiceError(
                    "couples_bought_in",
                    gettext(
                        "%(bought)s couple(s) bought into the cookie jar at the door: it "
                        "stays on while any couple is in it (take them out on the couples "
                        "page first)."
                    )
                    % {"bought": bought},
                    field="cookie_jar",
                )
        if "booby_prize" in fields:
            booby = inputs.prize_of(fields["booby_prize"], "booby_prize", share=False)
            setup.booby_amount, setup.booby_description = booby.amount, booby.description
        if "cookie_jar_k" in fields:
            setup.cookie_jar_k = inputs.COOKIE_JAR_K.check(fields["cookie_jar_k"])
            _within_the_night("cookie_jar_k", setup.cookie_jar_k, drive)
        if setup.cookie_jar_k > drive.games:
            setup.cookie_jar_k = drive.games
        if "buy_in" in fields:
            setup.buy_in = inputs.BUY_IN.check(fields["buy_in"])
        if "jackpot_threshold" in fields:
            setup.jackpot_threshold = inputs.JACKPOT_THRESHOLD.check(fields["jackpot_threshold"])
            _within_the_night("jackpot_threshold", setup.jackpot_threshold, drive)
        if "jackpot_amount" in fields:
            setup.jackpot_amount = inputs.JACKPOT_AMOUNT.check(fields["jackpot_amount"])
        if (setup.jackpot_threshold is None) != (setup.jackpot_amount is None):
            raise _bad("jackpot_amount", gettext("A jackpot needs both a threshold and an amount."))
        if "house_rule" in fields:
            setup.house_rule = inputs.HOUSE_RULE.check(fields["house_rule"])
        if "share_rounding" in fields:
            setup.share_rounding = Decimal(inputs.SHARE_ROUNDING.check(fields["share_rounding"]))
        if "half_time" in fields:
            _set_half_time(setup, inputs.half_time_of(fields["half_time"]), drive)
        if "categories" in fields:
            _set_categories(drive, inputs.categories_of(fields["categories"]))
        shares = [
            inputs.PrizeValue(None, "", p.share_of, p.percent)
            for p in PrizePlace.objects.filter(drive=drive, place__lte=setup.prize_places)
        ]
        shares.append(inputs.PrizeValue(None, "", "", setup.half_time_percent))
        shares += [
            inputs.PrizeValue(None, "", c.share_of, c.percent)
            for c in PrizeCategory.objects.filter(drive=drive)
        ]
        inputs.shares_total(shares)
        setup.updated_at = timezone.now()
        setup.save()
        new = _setup_dict(setup, drive)
        audit(drive, actor, "prizes.setup", subject=drive.slug, old=old, new=new)
    return setup


def _set_half_time(
    setup: PrizeSetup, given: tuple[int, inputs.PrizeValue] | None, drive: Drive
) -> None:
    if given is None:
        after, prize = None, inputs.PrizeValue(None, "")
    else:
        after, prize = given
        _within_the_night("half_time", after, drive)
    setup.half_time_after = after
    setup.half_time_amount, setup.half_time_description = prize.amount, prize.description
    setup.half_time_share_of, setup.half_time_percent = prize.share_of, prize.percent


def _set_categories(drive: Drive, given: list[inputs.CategoryValue]) -> None:
    """The hall's named prizes as sent, in their order (the list replaces the stored one)."""
    for one in given:
        _within_the_night("categories", one.after_game, drive)
    PrizeCategory.objects.filter(drive=drive).delete()
    PrizeCategory.objects.bulk_create(
        PrizeCategory(
            drive=drive,
            position=i,
            name=one.name,
            rule=one.rule,
            after_game=one.after_game,
            amount=one.prize.amount,
            description=one.prize.description,
            share_of=one.prize.share_of,
            percent=one.prize.percent,
        )
        for i, one in enumerate(given, 1)
    )


def _prize_words(amount: Decimal | None, text: str, share_of: str, percent: int | None) -> str:
    if share_of and percent is not None:
        fixed = f" = {amount}" if amount is not None else ""
        return f"{percent}% of {share_of}{fixed}"
    return str(amount) if amount is not None else text


def _setup_dict(setup: PrizeSetup, drive: Drive) -> dict[str, Any]:
    places = PrizePlace.objects.filter(drive=drive).order_by("place")
    categories = PrizeCategory.objects.filter(drive=drive).order_by("position")
    return {
        "prize_places": setup.prize_places,
        "prizes": {
            str(p.place): _prize_words(p.amount, p.description, p.share_of, p.percent)
            for p in places
        },
        "booby": setup.booby,
        "booby_late_couples": setup.booby_late_couples,
        "cookie_jar": setup.cookie_jar,
        "cookie_jar_k": setup.cookie_jar_k,
        "buy_in": str(setup.buy_in),
        "jackpot": [setup.jackpot_threshold, str(setup.jackpot_amount)],
        "cut_ace_high": setup.cut_ace_high,
        "cut_high_wins": setup.cut_high_wins,
        "house_rule": setup.house_rule,
        "one_prize_per_couple": setup.one_prize_per_couple,
        "share_rounding": str(setup.share_rounding),
        "half_time": (
            None
            if setup.half_time_after is None
            else [
                setup.half_time_after,
                _prize_words(
                    setup.half_time_amount,
                    setup.half_time_description,
                    setup.half_time_share_of,
                    setup.half_time_percent,
                ),
            ]
        ),
        "categories": [
            [
                c.name,
                c.rule if c.after_game is None else f"{c.rule} {c.after_game}",
                _prize_words(c.amount, c.description, c.share_of, c.percent),
            ]
            for c in categories
        ],
    }


def _fix_shares(drive: Drive, setup: PrizeSetup) -> list[str]:
    """The shares' amounts fixed from the night's takings as they stand (opening the ties):
    the awards, now and when a tie is settled, pay these."""
    bases = takings(drive)
    fixed = []
    for row in PrizePlace.objects.filter(drive=drive, amount__isnull=True).exclude(share_of=""):
        row.amount = share(bases[row.share_of], row.percent or 0, setup.share_rounding)
        row.save(update_fields=["amount"])
        fixed.append(f"place {row.place}: {row.percent}% of {row.share_of} = {row.amount}")
    if setup.half_time_share_of and setup.half_time_amount is None:
        setup.half_time_amount = resolved(
            None, setup.half_time_share_of, setup.half_time_percent, setup, drive
        )
        setup.save(update_fields=["half_time_amount"])
        fixed.append(
            f"half-time: {setup.half_time_percent}% of {setup.half_time_share_of} "
            f"= {setup.half_time_amount}"
        )
    for category in PrizeCategory.objects.filter(drive=drive, amount__isnull=True).exclude(
        share_of=""
    ):
        category.amount = share(
            bases[category.share_of], category.percent or 0, setup.share_rounding
        )
        category.save(update_fields=["amount"])
        fixed.append(
            f"{category.name}: {category.percent}% of {category.share_of} = {category.amount}"
        )
    return fixed


# --- opening the ties ----------------------------------------------------------------------------


def _couples(drive: Drive, numbers: Iterable[int]) -> dict[int, Couple]:
    return {c.number: c for c in Couple.objects.filter(drive=drive, number__in=list(numbers))}


def _award(
    drive: Drive,
    actor: Actor,
    kind: str,
    couple: Couple,
    *,
    place: int | None = None,
    amount: Decimal | None = None,
    description: str = "",
    how: str = Award.How.DIRECT,
    tie: Tie | None = None,
) -> Award:
    return Award.objects.create(
        drive=drive,
        kind=kind,
        place=place,
        couple=couple,
        amount=amount,
        description=description,
        how=how,
        tie=tie,
        user=actor.account,
        channel=actor.channel,
    )


def _category(drive: Drive, position: int) -> PrizeCategory:
    return PrizeCategory.objects.get(drive=drive, position=position)


def _place_prize(drive: Drive, place: int) -> tuple[Decimal | None, str]:
    row = PrizePlace.objects.filter(drive=drive, place=place).first()
    return (row.amount, row.description) if row else (None, "")


def prizes_open_ties(*, drive: Drive, actor: Actor = SYSTEM, force: bool = False) -> list[Tie]:
    """After the last game (or earlier with ``force``, the organizer's call): fix each share's
    amount from the takings, award every prize place, half-time prize, named prize, booby
    prize and jackpot nobody shares, and open a tie for each shared one.
    Pressing again changes nothing; if the standings changed since, 409 standings_changed."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        if not force and not night_over(drive):
            raise Conflict(
                "night_not_over",
                gettext("The last game is not complete: the places are not final yet."),
            )
        setup = _setup(drive)
        standing = Standing.of(drive)
        computed = compute(drive, setup, standing)
        couples = {r.couple.number: r.couple for r in standing.records}
        fixed = _fix_shares(drive, setup)
        existing = {t.key: t for t in Tie.objects.filter(drive=drive)}
        awards = list(Award.objects.filter(drive=drive).select_related("couple"))
        opened: list[Tie] = []
        created: list[str] = []

        def check_same(key: str, tie: Tie, numbers: tuple[int, ...]) -> None:
            if list(numbers) != tie.couples:
                raise Conflict(
                    "standings_changed",
                    gettext("The standings changed since the ties were opened (%(key)s).")
                    % {"key": key},
                    couples=list(numbers),
                    opened=tie.couples,
                )

        def direct(kind: str, couple: int, place: int | None, amount: Any, text: str) -> None:
            same = [a for a in awards if a.kind == kind and a.place == place and a.tie_id is None]
            if same:
                if same[0].couple.number != couple:
                    raise Conflict(
                        "standings_changed",
                        gettext(
                            "The standings changed since the prizes were awarded (%(kind)s "
                            "%(place)s)."
                        )
                        % {"kind": kind, "place": place},
                    )
                return
            _award(
                drive, actor, kind, couples[couple], place=place, amount=amount, description=text
            )
            created.append(f"{kind} {place or ''} → {couple}".replace("  ", " "))

        def open_tie(key: str, kind: str, places: list[int], numbers: tuple[int, ...]) -> None:
            tie = existing.get(key)
            if tie is not None:
                check_same(key, tie, numbers)
            else:
                tie = Tie.objects.create(
                    drive=drive, key=key, kind=kind, places=places, couples=list(numbers)
                )
                created.append(f"tie {key}: {list(numbers)}")
            opened.append(tie)

        for group in computed.groups:
            if len(group.couples) == 1:
                place = group.prizes[0]
                amount, text = _place_prize(drive, place)
                direct(Award.Kind.PLACE, group.couples[0], place, amount, text)
            else:
                key = f"place:{group.prizes[0]}"
                open_tie(key, Tie.Kind.PLACE, list(group.prizes), group.couples)
        if len(computed.booby) == 1:
            direct(
                Award.Kind.BOOBY,
                computed.booby[0],
                None,
                setup.booby_amount,
                setup.booby_description,
            )
        elif computed.booby:
            open_tie("booby", Tie.Kind.BOOBY, [], computed.booby)
        half = computed.half_time
        if half is not None and len(half.couples) == 1:
            direct(
                Award.Kind.HALF_TIME,
                half.couples[0],
                None,
                setup.half_time_amount,
                setup.half_time_description,
            )
        elif half is not None:
            open_tie("half-time", Tie.Kind.HALF_TIME, [], half.couples)
        for position, named in computed.categories.items():
            category = _category(drive, position)
            if len(named) == 1:
                direct(
                    Award.Kind.CATEGORY,
                    named[0],
                    position,
                    category.amount,
                    category.description,
                )
            elif named:
                open_tie(f"category:{position}", Tie.Kind.CATEGORY, [position], named)
        if computed.jackpot and setup.jackpot_amount is not None:
            have = {a.couple.number for a in awards if a.kind == Award.Kind.JACKPOT}
            if have and have != set(computed.jackpot):
                raise Conflict("standings_changed", gettext("The jackpot's winners changed."))
            if not have:
                how = Award.How.DIRECT if len(computed.jackpot) == 1 else Award.How.SPLIT
                for number, share in split_money(setup.jackpot_amount, computed.jackpot).items():
                    _award(drive, actor, Award.Kind.JACKPOT, couples[number], amount=share, how=how)
                created.append(f"jackpot → {list(computed.jackpot)}")
        if created or fixed:
            audit(
                drive,
                actor,
                "prizes.open",
                subject=drive.slug,
                new=fixed + created,
                note="before the last game was complete" if force else "",
            )
    return opened


# --- the tie procedure ---------------------------------------------------------------------------


def tie_get(drive: Drive, tie_id: Any) -> Tie:
    tie = Tie.objects.filter(drive=drive, pk=tie_id).first() if isinstance(tie_id, int) else None
    if tie is None:
        raise NotFound(
            "no_such_tie", gettext("There is no tie %(tie_id)s.") % {"tie_id": tie_id}, tie=tie_id
        )
    return tie


def _locked_tie(tie: Tie) -> tuple[Drive, Tie, PrizeSetup]:
    drive = lock_drive(tie.drive)
    require_open(drive)
    tie = Tie.objects.select_for_update().get(pk=tie.pk)
    tie.drive = drive
    return drive, tie, _setup(drive)


def tie_choose(*, tie: Tie, couple: Any, choice: Any, actor: Actor = SYSTEM) -> TieChoice:
    """Record a tied couple's choice: split, cut, play-off or forfeit. A house rule replaces
    it (always-cut: split or play-off become cut; always-split: cut or play-off become split).
    A couple may change its mind until the tie is decided; every choice is kept."""
    with transaction.atomic():
        drive, tie, setup = _locked_tie(tie)
        if tie.state != Tie.State.OPEN:
            raise Conflict("tie_decided", gettext("This tie is already decided."), tie=tie.pk)
        if couple not in tie.couples or isinstance(couple, bool):
            raise ServiceError(
                "not_in_tie",
                gettext("Couple %(couple)s is not in this tie (%(couples)s).")
                % {"couple": couple, "couples": tie.couples},
                couples=tie.couples,
            )
        choice = inputs.TIE_CHOICE.check(choice)
        applied = choice
        if setup.house_rule == PrizeSetup.HouseRule.ALWAYS_CUT and choice != "forfeit":
            applied = "cut"
        elif setup.house_rule == PrizeSetup.HouseRule.ALWAYS_SPLIT and choice != "forfeit":
            applied = "split"
        row = TieChoice.objects.create(
            tie=tie,
            couple=Couple.objects.get(drive=drive, number=couple),
            asked=choice,
            choice=applied,
            user=actor.account,
            channel=actor.channel,
        )
        audit(
            drive,
            actor,
            "tie.choice",
            subject=f"{tie.key} couple {couple}",
            new={"asked": choice, "choice": applied},
        )
    return row


def _latest_choices(tie: Tie) -> dict[int, str]:
    out: dict[int, str] = {}
    for number, choice in (
        TieChoice.objects.filter(tie=tie)
        .order_by("at", "id")
        .values_list("couple__number", "choice")
    ):
        out[number] = choice
    return out


def _prizes_of(
    drive: Drive, tie: Tie, setup: PrizeSetup
) -> list[tuple[int | None, Decimal | None, str]]:
    if tie.kind == Tie.Kind.PLACE:
        return [(p, *_place_prize(drive, p)) for p in tie.places]
    if tie.kind == Tie.Kind.BOOBY:
        return [(None, setup.booby_amount, setup.booby_description)]
    if tie.kind == Tie.Kind.HALF_TIME:
        return [(None, setup.half_time_amount, setup.half_time_description)]
    if tie.kind == Tie.Kind.CATEGORY:
        category = _category(drive, tie.places[0])
        return [(category.position, category.amount, category.description)]
    draw = CookieJarDraw.objects.get(drive=drive)
    return [(None, draw.pot, "")]


def _award_kind(tie: Tie) -> str:
    return {
        "place": Award.Kind.PLACE,
        "booby": Award.Kind.BOOBY,
        "half-time": Award.Kind.HALF_TIME,
        "category": Award.Kind.CATEGORY,
    }.get(tie.kind, Award.Kind.COOKIE_JAR)


def _settle(drive: Drive, tie: Tie, setup: PrizeSetup, winner: int, how: str, actor: Actor) -> None:
    """``winner`` takes the tie's (first) prize; under competition ranking the others go on to
    a tie for the places left (one couple left: it takes them)."""
    prizes = _prizes_of(drive, tie, setup)
    couples = _couples(drive, tie.couples)
    place, amount, text = prizes[0]
    _award(
        drive,
        actor,
        _award_kind(tie),
        couples[winner],
        place=place,
        amount=amount,
        description=text,
        how=how,
        tie=tie,
    )
    tie.state, tie.winner = Tie.State.SETTLED, winner
    tie.save()
    rest = [c for c in tie.couples if c != winner]
    if tie.kind == Tie.Kind.PLACE and len(tie.places) > 1:
        if len(rest) == 1:
            for p, amount, text in prizes[1:]:
                _award(
                    drive,
                    actor,
                    Award.Kind.PLACE,
                    couples[rest[0]],
                    place=p,
                    amount=amount,
                    description=text,
                    how=how,
                    tie=tie,
                )
        else:
            Tie.objects.create(
                drive=drive,
                key=f"place:{tie.places[1]}",
                kind=Tie.Kind.PLACE,
                places=tie.places[1:],
                couples=rest,
            )
    audit(drive, actor, "tie.settle", subject=tie.key, new={"winner": winner, "how": how})


def tie_decide(*, tie: Tie, actor: Actor = SYSTEM) -> Tie:
    """Apply the choice rule (docs/rules.md §9) to the couples' choices: split (shares to the cent
    of the combined money), award (the others forfeited), empty (all forfeited), or a cut or
    play-off to be held (the play-off's first round is drawn)."""
    with transaction.atomic():
        drive, tie, setup = _locked_tie(tie)
        if tie.state != Tie.State.OPEN:
            raise Conflict("tie_decided", gettext("This tie is already decided."), tie=tie.pk)
        choices = _latest_choices(tie)
        missing = [c for c in tie.couples if c not in choices]
        if missing:
            raise Conflict(
                "answer_needed",
                gettext("Couple(s) %(list)s must choose first.")
                % {"list": ", ".join(map(str, missing))},
                couples=missing,
            )
        try:
            decision = decide_tie(choices)
        except PrizeError as error:
            raise _error(error, 409) from None
        prizes = _prizes_of(drive, tie, setup)
        in_kind = any(amount is None and text for _, amount, text in prizes)
        if decision.method == "split" and in_kind and setup.house_rule == "always-split":
            # A club that always splits cannot split a thing: the couples cut for it.
            decision = TieDecision("cut", decision.couples, decision.forfeits)
        if decision.method == "split":
            if in_kind:
                raise ServiceError(
                    "cannot_split",
                    gettext(
                        "A prize in kind cannot be split: the couples must choose cut or play-off."
                    ),
                    couples=list(decision.couples),
                )
            amounts = [amount for _, amount, _ in prizes]
            if all(a is None for a in amounts):
                shares: dict[int, Decimal | None] = dict.fromkeys(decision.couples)
            else:
                total = sum((a or Decimal(0) for a in amounts), Decimal("0.00"))
                shares = dict(split_money(total, decision.couples))
        tie.method = decision.method
        tie.playing, tie.forfeits = list(decision.couples), list(decision.forfeits)
        tie.decided_by, tie.decided_channel, tie.decided_at = (
            actor.account,
            actor.channel,
            timezone.now(),
        )
        tie.state = Tie.State.DECIDED
        tie.save()
        audit(
            drive,
            actor,
            "tie.decide",
            subject=tie.key,
            old=choices,
            new={
                "method": decision.method,
                "couples": list(decision.couples),
                "forfeits": list(decision.forfeits),
            },
        )
        if decision.method == "split":
            couples = _couples(drive, decision.couples)
            for number, share in shares.items():
                _award(
                    drive,
                    actor,
                    _award_kind(tie),
                    couples[number],
                    place=prizes[0][0],
                    amount=share,
                    description=prizes[0][2] if share is None else "",
                    how=Award.How.SPLIT,
                    tie=tie,
                )
            tie.state = Tie.State.SETTLED
            tie.save()
        elif decision.method == "empty":
            tie.state = Tie.State.SETTLED
            tie.save()
        elif decision.method == "award":
            _settle(drive, tie, setup, decision.couples[0], Award.How.FORFEIT, actor)
        elif decision.method == "play-off":
            _store_round(tie, Bracket(decision.couples).current, 1)
    return tie


# --- cut -----------------------------------------------------------------------------------------


def _cut_contenders(tie: Tie, setup: PrizeSetup) -> tuple[list[int], int]:
    """The couples still cutting, and the number of rounds held."""
    rounds: dict[int, dict[int, Card]] = {}
    for rnd, number, card in CutCard.objects.filter(tie=tie).values_list(
        "round", "couple__number", "card"
    ):
        rounds.setdefault(rnd, {})[number] = Card.parse(card)
    if not rounds:
        return list(tie.playing), 0
    last = max(rounds)
    judged = judge_cut(rounds[last], ace_high=setup.cut_ace_high, highest=setup.cut_high_wins)
    return list(judged.lowest), last


def _require_cut(tie: Tie) -> None:
    if tie.state != Tie.State.DECIDED or tie.method != "cut":
        raise Conflict(
            "not_a_cut",
            gettext("This tie is not waiting for a cut."),
            tie=tie.pk,
            state=tie.state,
            method=tie.method or None,
        )


def tie_cut_record(*, tie: Tie, cards: Mapping[int, Any], actor: Actor = SYSTEM) -> dict[str, Any]:
    """One round of the cut as cut at the table: the card each couple still in drew. The
    lowest card wins (aces low unless the set-up says high), or the highest if the set-up says
    so; equal winning cards cut again. ``lowest`` in the answer names the winning card's
    couples."""
    with transaction.atomic():
        drive, tie, setup = _locked_tie(tie)
        _require_cut(tie)
        contenders, held = _cut_contenders(tie, setup)
        if not isinstance(cards, Mapping) or sorted(cards) != sorted(contenders):
            raise ServiceError(
                "wrong_couples",
                gettext("Give a card for each couple still cutting: %(contenders)s.")
                % {"contenders": contenders},
                couples=contenders,
            )
        drawn: dict[int, Card] = {}
        for number, text in cards.items():
            try:
                drawn[number] = Card.parse(text)
            except CardError as error:
                raise ServiceError(
                    error.code,
                    gettext("Couple %(number)s: %(message)s")
                    % {"number": number, "message": error.message},
                ) from None
        if len(set(drawn.values())) < len(drawn):
            raise ServiceError("same_card", gettext("Two couples cannot cut the very same card."))
        try:
            result = judge_cut(drawn, ace_high=setup.cut_ace_high, highest=setup.cut_high_wins)
        except PrizeError as error:
            raise _error(error) from None
        _store_cut(drive, tie, {held + 1: drawn}, None, actor)
        if result.decided:
            _settle(drive, tie, setup, result.lowest[0], Award.How.CUT, actor)
    return {"round": held + 1, "lowest": list(result.lowest), "decided": result.decided}


def new_seed() -> int:
    """The seed of a system draw, from the operating system's randomness: nobody chooses it."""
    return secrets.randbits(48)


def tie_cut_draw(*, tie: Tie, actor: Actor = SYSTEM) -> dict[str, Any]:
    """The cut drawn by the system among the couples still cutting, round after round until
    one has the winning card, from a seed drawn here (``new_seed``) and recorded with every
    card: ``draw_cut`` with the recorded seed gives the same cards."""
    seed = new_seed()
    with transaction.atomic():
        drive, tie, setup = _locked_tie(tie)
        _require_cut(tie)
        contenders, held = _cut_contenders(tie, setup)
        rounds = draw_cut(
            contenders, seed, ace_high=setup.cut_ace_high, highest=setup.cut_high_wins
        )
        _store_cut(
            drive, tie, {held + i: dict(r.cards) for i, r in enumerate(rounds, 1)}, seed, actor
        )
        _settle(drive, tie, setup, rounds[-1].lowest[0], Award.How.CUT, actor)
    return {
        "seed": seed,
        "rounds": [{str(c): str(card) for c, card in r.cards} for r in rounds],
        "winner": rounds[-1].lowest[0],
    }


def _store_cut(
    drive: Drive, tie: Tie, rounds: dict[int, dict[int, Card]], seed: int | None, actor: Actor
) -> None:
    couples = _couples(drive, tie.couples)
    CutCard.objects.bulk_create(
        CutCard(
            tie=tie,
            round=rnd,
            couple=couples[number],
            card=str(card),
            seed=seed,
            user=actor.account,
            channel=actor.channel,
        )
        for rnd, cards in rounds.items()
        for number, card in cards.items()
    )
    shown = {str(rnd): {str(n): str(c) for n, c in cards.items()} for rnd, cards in rounds.items()}
    note = f"system draw, seed {seed}" if seed is not None else "cut at the table"
    audit(drive, actor, "tie.cut", subject=tie.key, new=shown, note=note)


# --- play-off ------------------------------------------------------------------------------------


def _store_round(tie: Tie, pairs: list[tuple[int, int | None]], number: int) -> None:
    couples = _couples(tie.drive, tie.couples)
    PlayoffMatch.objects.bulk_create(
        PlayoffMatch(tie=tie, round=number, a=couples[a], b=couples[b] if b else None)
        for a, b in pairs
    )


def _bracket(tie: Tie) -> Bracket:
    """The play-off as stored, replayed through the engine's bracket."""
    bracket = Bracket(tuple(tie.playing))
    matches = PlayoffMatch.objects.filter(tie=tie, winner__isnull=False, b__isnull=False)
    for a, b, winner in matches.order_by("round", "a__number").values_list(
        "a__number", "b__number", "winner__number"
    ):
        bracket.record((a, b), winner)
    return bracket


def tie_playoff_result(
    *,
    tie: Tie,
    match: Any,
    winner: Any,
    points: Any = None,
    confirm_unusual: Any = False,
    actor: Actor = SYSTEM,
) -> dict[str, Any]:
    """A play-off game's result, validated like any game (the drive's ruleset; an impossible
    score is refused with the engine's code, an unusual one needs ``confirm_unusual``). When a
    round is complete the next is drawn; the last winner takes the prize."""
    match = inputs.MATCH.check(match)
    pair = (min(match), max(match))
    with transaction.atomic():
        drive, tie, setup = _locked_tie(tie)
        if tie.state != Tie.State.DECIDED or tie.method != "play-off":
            raise Conflict(
                "not_a_playoff", gettext("This tie is not waiting for a play-off."), tie=tie.pk
            )
        if winner not in pair or isinstance(winner, bool):
            raise ServiceError(
                "wrong_couple",
                gettext("Couple %(winner)s is not in the match %(pair)s.")
                % {"winner": winner, "pair": list(pair)},
            )
        win_pts, lose_pts, verdict = judge_points(drive, points, confirm_unusual)
        bracket = _bracket(tie)
        before = len(bracket.rounds)
        try:
            bracket.record(pair, winner)
        except PrizeError as error:
            raise _error(error, 409 if error.code == "already_played" else 422) from None
        row = PlayoffMatch.objects.get(tie=tie, round=before, a__number=pair[0])
        row.winner = Couple.objects.get(drive=drive, number=winner)
        row.winner_points, row.loser_points = win_pts, lose_pts
        row.verdict = verdict.code if verdict is not None else ""
        row.user, row.channel, row.at = actor.account, actor.channel, timezone.now()
        row.save()
        audit(
            drive,
            actor,
            "tie.playoff",
            subject=f"{tie.key} {pair[0]}-{pair[1]}",
            new={"winner": winner, "points": points},
        )
        if len(bracket.rounds) > before:
            _store_round(tie, bracket.current, len(bracket.rounds))
        if bracket.champion is not None:
            _settle(drive, tie, setup, bracket.champion, Award.How.PLAY_OFF, actor)
    return {
        "round": before,
        "match": list(pair),
        "winner": winner,
        "next": [list(p) for p in bracket.pending()],
        "champion": bracket.champion,
    }


# --- cookie jar ----------------------------------------------------------------------------------


def cookie_jar_draw(*, drive: Drive, games: Any = None, actor: Actor = SYSTEM) -> CookieJarDraw:
    """Draw the cookie jar's K games after the last game: by the system from a seed drawn here
    (``new_seed``) and recorded (``draw_cookie_jar_games`` with it gives the same games), or
    ``games`` as drawn from a hat. One winner takes the pot; several open a tie of kind
    cookie-jar; none: the pot carries over to the club's next drive."""
    seed: int | None = None
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        setup = _setup(drive)
        bought = bought_in(drive)
        if not jar_on(setup, bought):
            raise ServiceError("cookie_jar_off", gettext("This drive has no cookie jar."))
        if CookieJarDraw.objects.filter(drive=drive).exists():
            raise Conflict("cookie_jar_drawn", gettext("The cookie jar is already drawn."))
        if not night_over(drive):
            raise Conflict("night_not_over", gettext("Draw the cookie jar after the last game."))
        if bought and setup.buy_in == 0:
            raise ServiceError(
                "no_buy_in",
                gettext(
                    "%(bought)s couple(s) bought in, but no buy-in is set: the pot would be "
                    "%(drive)s. Set the buy-in first."
                )
                % {"bought": bought, "drive": carried_in(drive)},
                field="buy_in",
            )
        k = min(setup.cookie_jar_k, drive.games)
        if games is not None:
            games = inputs.COOKIE_JAR_GAMES.check(games)
            if len(games) != k or not all(g <= drive.games for g in games):
                raise ServiceError(
                    "bad_games",
                    gettext("Give %(k)s different game numbers from 1 to %(games)s.")
                    % {"k": k, "games": drive.games},
                    field="games",
                )
            drawn, method = tuple(games), CookieJarDraw.Method.HAT
        else:
            seed = new_seed()
            drawn, method = draw_cookie_jar_games(drive.games, k, seed), CookieJarDraw.Method.SYSTEM
        standing = Standing.of(drive)
        entrants = sorted(standing.cookie_jar)
        carried = carried_in(drive)
        pot = setup.buy_in * len(entrants) + carried
        playing = [c for c in entrants if c not in standing.withdrawn]
        winners = list(cookie_jar_winners(playing, standing.won_games, drawn))
        draw = CookieJarDraw.objects.create(
            drive=drive,
            method=method,
            seed=seed if method == "system" else None,
            games=list(drawn),
            entrants=entrants,
            pot=pot,
            carried_in=carried,
            winners=winners,
            user=actor.account,
            channel=actor.channel,
        )
        if len(winners) == 1:
            _award(
                drive,
                actor,
                Award.Kind.COOKIE_JAR,
                Couple.objects.get(drive=drive, number=winners[0]),
                amount=pot,
            )
        elif winners:
            Tie.objects.create(
                drive=drive, key="cookie-jar", kind=Tie.Kind.COOKIE_JAR, couples=winners
            )
        audit(
            drive,
            actor,
            "cookie_jar.draw",
            subject=drive.slug,
            new={
                "games": list(drawn),
                "method": method,
                "seed": draw.seed,
                "winners": winners,
                "pot": str(pot),
            },
        )
    return draw
