"""Prizes of a drive (docs/rules.md §8–§10): prize places from the final wins, the tie procedure
(split / cut / play-off), the booby prize, the cookie jar and the jackpot.

Terms:
- A *place group* is the couples sharing one place; it *covers* the prize places its
  couples take: one under dense ranking, as many as its size under competition ranking
  (1, 1, 3: the two first-placed couples cover prizes 1 and 2).
- A *tie* is a place group of two or more couples covering a prize; it is settled by the
  tied couples' *choices*: any play-off → a play-off among those who will play (the others
  forfeit); every couple for a split → split; otherwise a cut, lowest card wins (or the
  highest, as the club's set-up says).
- Money is ``Decimal`` to the cent; a split gives shares that differ by at most one cent and
  add up to the prize, the extra cents to the lower couple numbers.

Randomness (system cuts, the cookie jar's drawn games) comes from a ``random.Random`` built
from a recorded seed, so a draw can be shown again exactly. This module decides; it stores
nothing and knows no database.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Final, Literal

from engine.cards import Card, full_pack
from engine.standings import Ranking, places

__all__ = [
    "CATEGORY_RULES",
    "CHOICES",
    "Bracket",
    "Choice",
    "CutRound",
    "PlaceGroup",
    "PrizeError",
    "TieDecision",
    "booby_couples",
    "category_scores",
    "category_winners",
    "cookie_jar_winners",
    "cut_rank",
    "decide_tie",
    "draw_cookie_jar_games",
    "draw_cut",
    "jackpot_winners",
    "judge_cut",
    "longest_run",
    "place_groups",
    "split_money",
]

Choice = Literal["split", "cut", "play-off", "forfeit"]
CHOICES: Final[tuple[str, ...]] = ("split", "cut", "play-off", "forfeit")
CENT: Final = Decimal("0.01")


class PrizeError(ValueError):
    """A prize question that cannot be settled from what was given; ``code`` says why."""

    def __init__(self, code: str, message: str, couples: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.couples = tuple(couples)


# --- places --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceGroup:
    """Couples sharing a place; ``prizes`` are the prize places (1-based) they cover."""

    place: int
    wins: int
    couples: tuple[int, ...]
    prizes: tuple[int, ...]

    @property
    def is_tie(self) -> bool:
        return len(self.couples) > 1 and bool(self.prizes)


def place_groups(
    wins: Mapping[int, int],
    *,
    prize_places: int,
    ranking: Ranking = "dense",
    withdrawn: Collection[int] = (),
) -> list[PlaceGroup]:
    """The groups that take prize places, best first; withdrawn couples take none.

    Dense: the n-th distinct number of wins is place n and covers prize n. Competition: a
    group at position k of size m covers prizes k..k+m-1 (as far as there are prizes).
    """
    if prize_places < 0:
        raise PrizeError("bad_places", "The number of prize places cannot be negative.")
    place_of = places(wins, ranking=ranking, withdrawn=withdrawn)
    groups: dict[int, list[int]] = {}
    for couple, place in place_of.items():
        if place is not None:
            groups.setdefault(place, []).append(couple)
    out: list[PlaceGroup] = []
    position = 1
    for place in sorted(groups):
        couples = tuple(sorted(groups[place]))
        covered: tuple[int, ...]
        if ranking == "dense":
            covered = (place,) if place <= prize_places else ()
        else:
            covered = tuple(
                p for p in range(position, position + len(couples)) if p <= prize_places
            )
        position += len(couples)
        if covered:
            out.append(PlaceGroup(place, wins[couples[0]], couples, covered))
    return out


def booby_couples(
    wins: Mapping[int, int],
    played: Mapping[int, int],
    *,
    games: int,
    withdrawn: Collection[int] = (),
    exclude: Collection[int] = (),
    every_game: bool = True,
) -> tuple[int, ...]:
    """The couples with the fewest wins among those who played every game (withdrawn couples
    and those in ``exclude`` — prize winners — left out); more than one is a tie. With
    ``every_game`` false the couples who missed games (late arrivals) are in it too."""
    out_of_it = set(withdrawn) | set(exclude)
    eligible = {
        c: w
        for c, w in wins.items()
        if c not in out_of_it and (not every_game or played.get(c, 0) >= games)
    }
    if not eligible:
        return ()
    fewest = min(eligible.values())
    return tuple(sorted(c for c, w in eligible.items() if w == fewest))


# --- the hall's named categories ----------------------------------------------------------------

#: The rules a named category ("Hard luck", "Hot streak") may be given: the longest run of
#: games lost, of games won, the most games lost in all, the most games won after game N.
CATEGORY_RULES: Final[tuple[str, ...]] = (
    "most_lost_in_a_row",
    "most_won_in_a_row",
    "most_lost",
    "best_after",
)


def longest_run(games: Mapping[int, bool], won: bool) -> int:
    """The most games in a row a couple won (``won``) or lost, from its games by number (True:
    won); a game it did not play (a number missing) ends a run."""
    best = run = 0
    last: int | None = None
    for number in sorted(games):
        if games[number] != won or (last is not None and number != last + 1):
            run = 0
        if games[number] == won:
            run += 1
            best = max(best, run)
        last = number
    return best


def category_scores(
    rule: str, games: Mapping[int, Mapping[int, bool]], *, after: int | None = None
) -> dict[int, int]:
    """Each couple's score under a category's ``rule`` (higher is better), from each couple's
    games (game number → won): ``most_lost_in_a_row`` and ``most_won_in_a_row`` the longest run,
    ``most_lost`` the games lost, ``best_after`` the games won after game ``after``."""
    if rule not in CATEGORY_RULES:
        raise PrizeError("bad_rule", f"{rule} is not a category's rule.")
    if rule == "best_after" and after is None:
        raise PrizeError("bad_rule", "best_after needs the game it counts after.")
    out: dict[int, int] = {}
    for couple, played in games.items():
        if rule == "most_lost_in_a_row":
            out[couple] = longest_run(played, False)
        elif rule == "most_won_in_a_row":
            out[couple] = longest_run(played, True)
        elif rule == "most_lost":
            out[couple] = sum(1 for won in played.values() if not won)
        else:
            out[couple] = sum(1 for g, won in played.items() if won and g > (after or 0))
    return out


def category_winners(
    rule: str,
    games: Mapping[int, Mapping[int, bool]],
    *,
    after: int | None = None,
    withdrawn: Collection[int] = (),
    exclude: Collection[int] = (),
) -> tuple[tuple[int, ...], int]:
    """The couples with the highest score under ``rule`` (several: a tie, settled like any
    other) and that score; withdrawn couples and those in ``exclude`` (with one prize per
    couple: those already in a prize) are left out. Nobody scores above zero: nobody wins."""
    out_of_it = set(withdrawn) | set(exclude)
    scores = {
        c: s for c, s in category_scores(rule, games, after=after).items() if c not in out_of_it
    }
    best = max(scores.values(), default=0)
    if best <= 0:
        return (), 0
    return tuple(sorted(c for c, s in scores.items() if s == best)), best


# --- money ---------------------------------------------------------------------------------------


def split_money(amount: Decimal, couples: Sequence[int]) -> dict[int, Decimal]:
    """Shares to the cent that add up to ``amount``; the extra cents go to the lower numbers."""
    if not couples:
        raise PrizeError("nobody", "A prize cannot be split among nobody.")
    amount = Decimal(amount)
    if amount < 0 or amount != amount.quantize(CENT):
        raise PrizeError("bad_amount", f"{amount} is not an amount to the cent.")
    ordered = sorted(set(couples))
    cents = int(amount / CENT)
    base, extra = divmod(cents, len(ordered))
    return {
        c: (Decimal(base + (1 if i < extra else 0)) * CENT).quantize(CENT, ROUND_DOWN)
        for i, c in enumerate(ordered)
    }


# --- ties ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TieDecision:
    """How a tie is settled: ``method`` split / cut / play-off / award (one couple is left) /
    empty (everyone forfeited); ``couples`` take part, ``forfeits`` gave up."""

    method: Literal["split", "cut", "play-off", "award", "empty"]
    couples: tuple[int, ...]
    forfeits: tuple[int, ...] = ()


def decide_tie(choices: Mapping[int, str]) -> TieDecision:
    """Apply docs/rules.md §9 to each tied couple's choice.

    Any play-off: those who chose it play, every other couple must have answered play-off or
    forfeit (``PrizeError`` ``answer_needed`` names those still to answer). Else a unanimous
    split among those not forfeiting, otherwise a cut among them. One couple left: it takes
    the prize; none: the prize is left empty.
    """
    if len(choices) < 2:
        raise PrizeError("not_a_tie", "A tie needs two or more couples.")
    bad = sorted(c for c, choice in choices.items() if choice not in CHOICES)
    if bad:
        raise PrizeError(
            "bad_choice", f"Couple {bad[0]}: choose split, cut, play-off or forfeit.", bad
        )
    forfeits = tuple(sorted(c for c, choice in choices.items() if choice == "forfeit"))
    staying = tuple(sorted(c for c, choice in choices.items() if choice != "forfeit"))
    if any(choice == "play-off" for choice in choices.values()):
        undecided = sorted(c for c, choice in choices.items() if choice in ("split", "cut"))
        if undecided:
            raise PrizeError(
                "answer_needed",
                f"A play-off was asked for: couple(s) {', '.join(map(str, undecided))} must "
                "now choose to play or to forfeit.",
                undecided,
            )
    if not staying:
        return TieDecision("empty", (), forfeits)
    if len(staying) == 1:
        return TieDecision("award", staying, forfeits)
    if any(choices[c] == "play-off" for c in staying):
        return TieDecision("play-off", staying, forfeits)
    if all(choices[c] == "split" for c in staying):
        return TieDecision("split", staying, forfeits)
    return TieDecision("cut", staying, forfeits)


def cut_rank(card: Card, *, ace_high: bool = False) -> int:
    """A card's value in a cut, lowest wins: A=1 (or 14 with ``ace_high``), 2..10, J 11, Q
    12, K 13; suits do not count. The joker is not used in cuts."""
    if card.is_joker:
        raise PrizeError("joker_in_cut", "The joker is taken out of the pack for a cut.")
    if card.rank == 14:
        return 14 if ace_high else 1
    return card.rank


@dataclass(frozen=True, slots=True)
class CutRound:
    """One round of a cut: the card each couple drew, and who drew the winning card in
    ``lowest`` (the lowest card; the highest in a cut where the highest wins)."""

    cards: tuple[tuple[int, Card], ...]
    lowest: tuple[int, ...]

    @property
    def decided(self) -> bool:
        return len(self.lowest) == 1


def judge_cut(
    cards: Mapping[int, Card], *, ace_high: bool = False, highest: bool = False
) -> CutRound:
    """The couples who drew the lowest card, or the highest with ``highest`` (the way many
    halls cut, usually aces high); one: it wins; several: they cut again."""
    if len(cards) < 2:
        raise PrizeError("not_a_tie", "A cut needs two or more couples.")
    values = {c: cut_rank(card, ace_high=ace_high) for c, card in cards.items()}
    best = max(values.values()) if highest else min(values.values())
    return CutRound(
        tuple(sorted(cards.items())), tuple(sorted(c for c, v in values.items() if v == best))
    )


def draw_cut(
    couples: Sequence[int], seed: int, *, ace_high: bool = False, highest: bool = False
) -> list[CutRound]:
    """A system cut from a recorded seed: each couple in number order takes the top card of a
    freshly shuffled 52-card pack; equal winning cards (lowest, or highest with ``highest``)
    cut again among themselves, until one couple is left. The same seed gives the same
    rounds."""
    if len(set(couples)) < 2:
        raise PrizeError("not_a_tie", "A cut needs two or more couples.")
    rng = random.Random(seed)
    rounds: list[CutRound] = []
    still = sorted(set(couples))
    while len(still) > 1:
        pack = full_pack()
        rng.shuffle(pack)
        result = judge_cut(dict(zip(still, pack, strict=False)), ace_high=ace_high, highest=highest)
        rounds.append(result)
        still = list(result.lowest)
        if len(rounds) > 1000:  # cannot happen with a fair shuffle; never loop for ever
            raise PrizeError("cut_runaway", "The cut did not finish.")
    return rounds


@dataclass
class Bracket:
    """A knock-out play-off: pair in couple-number order, the odd one out (the highest number
    left) gets a bye, winners go on until one is left. ``rounds[i]`` lists the matches of
    round i+1 as (a, b) pairs, a bye as (a, None)."""

    couples: tuple[int, ...]
    rounds: list[list[tuple[int, int | None]]] = field(default_factory=list)
    winners: dict[tuple[int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.couples = tuple(sorted(set(self.couples)))
        if len(self.couples) < 2:
            raise PrizeError("not_a_tie", "A play-off needs two or more couples.")
        self.rounds = [_pairs(self.couples)]

    @property
    def current(self) -> list[tuple[int, int | None]]:
        return self.rounds[-1]

    def pending(self) -> list[tuple[int, int]]:
        """The matches of the current round still to be played."""
        return [(a, b) for a, b in self.current if b is not None and (a, b) not in self.winners]

    def record(self, match: tuple[int, int], winner: int) -> None:
        """Record a match's winner; when the round is complete the next one is drawn."""
        if match not in self.current or match[1] is None:
            raise PrizeError("no_such_match", f"{match} is not a match of the current round.")
        if winner not in match:
            raise PrizeError("wrong_couple", f"Couple {winner} is not in the match {match}.")
        if match in self.winners and self.winners[match] != winner:
            raise PrizeError("already_played", f"The match {match} already has a winner.")
        self.winners[match] = winner
        if not self.pending() and self.champion is None:
            survivors = [a if b is None else self.winners[(a, b)] for a, b in self.current]
            if len(survivors) > 1:
                self.rounds.append(_pairs(tuple(sorted(survivors))))

    @property
    def champion(self) -> int | None:
        if self.pending():
            return None
        survivors = [a if b is None else self.winners[(a, b)] for a, b in self.current]
        return survivors[0] if len(survivors) == 1 else None

    @property
    def games(self) -> int:
        """Matches to play in all (byes excluded): one fewer than the couples."""
        return len(self.couples) - 1


def _pairs(couples: Sequence[int]) -> list[tuple[int, int | None]]:
    pairs: list[tuple[int, int | None]] = [
        (couples[i], couples[i + 1]) for i in range(0, len(couples) - 1, 2)
    ]
    if len(couples) % 2:
        pairs.append((couples[-1], None))
    return pairs


# --- cookie jar and jackpot ----------------------------------------------------------------------


def draw_cookie_jar_games(games: int, k: int, seed: int) -> tuple[int, ...]:
    """K distinct game numbers from 1..games, drawn from a recorded seed, in draw order."""
    if not 1 <= k <= games:
        raise PrizeError("bad_draw", f"Draw between 1 and {games} games, not {k}.")
    return tuple(random.Random(seed).sample(range(1, games + 1), k))


def cookie_jar_winners(
    entrants: Collection[int], won_games: Mapping[int, Collection[int]], drawn: Collection[int]
) -> tuple[int, ...]:
    """Entrants who won every drawn game (several share the jar; none: it carries over)."""
    needed = set(drawn)
    if not needed:
        raise PrizeError("no_games_drawn", "Draw the games first.")
    return tuple(sorted(c for c in entrants if needed <= set(won_games.get(c, ()))))


def jackpot_winners(
    wins: Mapping[int, int], threshold: int, *, withdrawn: Collection[int] = ()
) -> tuple[int, ...]:
    """Every couple at or over the threshold of wins (they share the jackpot)."""
    out = set(withdrawn)
    return tuple(sorted(c for c, w in wins.items() if w >= threshold and c not in out))
