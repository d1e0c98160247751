"""Verdicts on scores: is a game's final score, or its hand-by-hand score sheet, possible?
The rules: docs/rules.md §4–§5 (scoring a hand; which final scores are legal).

Terms: a *verdict* has a ``status`` — ``ok`` (it happens when every hand has a trump),
``unusual`` (it needs one or more hands in which no trump was played: a 25-point hand under the
``best-trump`` bonus; accepted only once the person entering it confirms), ``impossible``
(refused) — with a stable ``code`` for programs and a ``message`` for people. The message is
English: one of ``WORDS``, picked by the code and its ``wording``, filled with the verdict's
``params`` (the score, the target, the hands…); the apps say the same in their reader's language
by looking up the code and wording and filling in the same params.

How: the states a game can pass through before its last hand are enumerated once per ruleset
(a handful for a 45 game), and every final score that one more hand can produce is tabled with
the fewest trumpless hands it needs. A final score is then a dictionary look-up. Auction scores
can fall without limit, so there the look-up is made backwards from the final score through
the possible last hands; every state below the target is reachable (``tests/engine`` checks
this by search), which makes that exact.

This module does not decide who won an equal score (the dealer's position does, and the person
entering names the winner) and stores nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Literal

from engine.auction import BIDS, auction_hand_points, bids_for
from engine.game import HandLine, end_of_hand
from engine.rules import Ruleset

__all__ = [
    "CODES",
    "WORDS",
    "Verdict",
    "check_final_points",
    "check_final_score",
    "check_final_scores",
    "check_score_sheet",
    "legal_final_scores",
]

Status = Literal["ok", "unusual", "impossible"]

#: Every code a verdict may carry, with what it means.
CODES: Final[dict[str, str]] = {
    "ok": "a score that happens when every hand has a trump",
    "trumpless_hands": "possible only with hands in which no trump was played (unusual)",
    "not_a_number": "points must be whole numbers",
    "not_multiple_of_five": "points come in fives",
    "negative_points": "points below zero outside auction",
    "winner_below_target": "the winner has fewer points than the target",
    "loser_ahead": "the loser has more points than the winner",
    "too_many_points": "more points than the hands could give",
    "game_already_won": "it needs a hand played after the game was already won",
    "tie_played_on": "a tie at the target or more is played on (equal_totals: play-on)",
    "not_whole_hands": "the points do not add up to whole hands",
    "not_reachable": "no sequence of hands ends a game on this score",
    "empty_sheet": "a score sheet without hands",
    "bad_hand_total": "a hand's points do not add up to a possible hand",
    "missing_bid": "an auction hand without its bidder and bid",
    "bad_bid": "a bid that is not 15, 20, 25 or 30, or below the lowest bid the rules allow",
    "bad_side": "a side that is not 0 or 1",
    "bad_auction_points": "points that the bid and the tricks cannot give",
    "hand_after_game_won": "a hand played after the game was over",
    "game_not_finished": "no couple reached the target",
    "wrong_winner": "the couple named as winner did not win on these points",
    "final_mismatch": "the score sheet does not add up to the final score",
}

#: The words of every verdict, by (code, wording): the message is the template filled with the
#: verdict's ``params``. Scores are written winner first, "45–10" (a minus sign below zero).
WORDS: Final[dict[tuple[str, str], str]] = {
    ("ok", "regular"): "%(score)s is a regular final score.",
    ("ok", "possible"): "%(score)s is a possible final score.",
    ("ok", "sheet"): "The sheet is regular and ends %(score)s.",
    ("trumpless_hands", "one"): (
        "%(score)s can only happen with %(hands)s hand in which no trump was played. "
        "Check it with the table, then confirm it."
    ),
    ("trumpless_hands", "many"): (
        "%(score)s can only happen with %(hands)s hands in which no trump was played. "
        "Check it with the table, then confirm it."
    ),
    ("trumpless_hands", "sheet_one"): (
        "This sheet has %(hands)s hand in which no trump was played. "
        "Check it with the table, then confirm it."
    ),
    ("trumpless_hands", "sheet_many"): (
        "This sheet has %(hands)s hands in which no trump was played. "
        "Check it with the table, then confirm it."
    ),
    ("not_a_number", ""): "%(value)s is not a whole number of points.",
    ("not_a_number", "sheet"): "Hand %(hand)s: %(value)s is not a whole number of points.",
    ("not_multiple_of_five", ""): "%(value)s is not a multiple of 5: points come in fives.",
    ("not_multiple_of_five", "sheet"): (
        "Hand %(hand)s: %(value)s is not a multiple of 5: points come in fives."
    ),
    ("negative_points", ""): "%(value)s: points cannot go below zero in this game.",
    ("negative_points", "sheet"): (
        "Hand %(hand)s: %(value)s: points cannot go below zero in this game."
    ),
    ("winner_below_target", ""): "%(score)s: the winner needs at least %(target)s points.",
    ("winner_below_target", "five_tricks"): (
        "%(score)s: the winner needs at least %(target)s points, or all five tricks of the "
        "last hand."
    ),
    ("winner_below_target", "floor"): (
        "%(score)s: the winner needs at least %(target)s points, or the losers at %(floor)s or "
        "below."
    ),
    ("loser_ahead", ""): "%(score)s: the losing couple cannot have more points than the winner.",
    ("loser_ahead", "auction"): (
        "%(score)s: the losing couple can be ahead only when both reach %(target)s in the same "
        "hand and the winners were the bidders."
    ),
    ("too_many_points", "winner"): (
        "%(score)s: more points than the hands could give; a winner ends with at most %(most)s."
    ),
    ("too_many_points", "loser"): (
        "%(score)s: more points than the hands could give; a loser ends with at most %(most)s."
    ),
    ("tie_played_on", ""): (
        "%(score)s: a tie at %(target)s or more is not the end of a game under these rules; "
        "another hand is played until one couple is ahead."
    ),
    ("game_already_won", ""): (
        "%(score)s: this needs a hand played after the game was already won (the game ends as "
        "soon as a couple has %(target)s)."
    ),
    ("game_already_won", "five_tricks"): (
        "%(score)s: this needs a hand played after the game was already won (the game ends as "
        "soon as a couple has %(target)s or takes all five tricks)."
    ),
    ("not_whole_hands", ""): (
        "%(score)s: %(total)s points in all is not a number of whole hands (a hand gives "
        "%(full)s, or %(trumpless)s without a trump)."
    ),
    ("not_reachable", ""): "%(score)s: no last hand of auction ends a game so.",
    ("bad_side", ""): "Give two scores and the winning side, 0 or 1.",
    ("empty_sheet", ""): "The score sheet has no hands.",
    ("hand_after_game_won", ""): "Hand %(hand)s was played after the game was over at %(score)s.",
    ("bad_hand_total", ""): (
        "Hand %(hand)s: %(score)s is %(total)s points; a hand gives %(full)s, or %(trumpless)s "
        "without the bonus."
    ),
    ("missing_bid", "sheet"): (
        "Hand %(hand)s: %(score)s cannot come from that bid (an auction hand without its "
        "bidder and bid)."
    ),
    ("bad_side", "sheet"): (
        "Hand %(hand)s: %(score)s cannot come from that bid (a side that is not 0 or 1)."
    ),
    ("bad_bid", "sheet"): (
        "Hand %(hand)s: %(score)s cannot come from that bid (a bid that is not 15, 20, 25 or "
        "30, or below the lowest bid the rules allow)."
    ),
    ("bad_auction_points", "sheet"): (
        "Hand %(hand)s: %(score)s cannot come from that bid (points that the bid and the "
        "tricks cannot give)."
    ),
    ("game_not_finished", ""): "The sheet ends at %(score)s: no couple has reached %(target)s.",
    ("final_mismatch", ""): "The hands add up to %(score)s, not %(final)s.",
    ("wrong_winner", ""): "At %(score)s the couple on side %(side)s won, not side %(winner)s.",
}

TRICK = 5
FULL_HAND = 30
TRUMPLESS_HAND = 25
#: ``equal_totals: play-on``: the table holds games tied up to this far past the target; a
#: longer game is the same as a shorter one with 15-15 hands added, so the look-up folds
#: scores beyond back into the table (``_play_on_key``).
PLAY_ON_SPAN = 45


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement on a score. ``hand`` is the 1-based hand a score-sheet problem is in;
    ``wording`` and ``params``: which of the code's ``WORDS`` the message is, and what fills it
    in (``score``, ``target``, ``hands``, ``most``… as the template names them)."""

    status: Status
    code: str
    message: str
    hand: int | None = None
    trumpless_hands: int = 0
    wording: str = ""
    params: Mapping[str, object] = field(default_factory=dict, hash=False)

    @property
    def accepted(self) -> bool:
        """Whether the score may be stored (an unusual one only once confirmed)."""
        return self.status != "impossible"

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "status": self.status,
            "code": self.code,
            "message": self.message,
        }
        if self.hand is not None:
            data["hand"] = self.hand
        return data


def _verdict(
    status: Status,
    code: str,
    wording: str,
    params: dict[str, object],
    *,
    hand: int | None = None,
    trumpless_hands: int = 0,
) -> Verdict:
    """The verdict with its words: ``WORDS[code, wording]`` filled with ``params`` (and the
    hand's number, for a score-sheet problem)."""
    if hand is not None:
        params["hand"] = hand
    message = WORDS[code, wording] % params
    return Verdict(status, code, message, hand, trumpless_hands, wording, params)


def _impossible(
    code: str, wording: str = "", *, hand: int | None = None, **params: object
) -> Verdict:
    return _verdict("impossible", code, wording, params, hand=hand)


def _ok(w: int, loser: int, wording: str = "regular") -> Verdict:
    return _verdict("ok", "ok", wording, {"score": _score(w, loser)})


def _score(w: int, loser: int) -> str:
    return f"{w}–{loser}".replace("-", "−")


# --- what one hand can give -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One way a hand can end: the points per side, and the line that records it."""

    line: HandLine
    unusual: int  # 1 if it needs a trumpless hand under a best-trump bonus


def _hand_totals(rules: Ruleset) -> tuple[tuple[int, int], ...]:
    """(total, unusual) pairs: 30 always; 25 (no bonus earned) unusual only under best-trump,
    where it needs a hand without any trump; under the other bonus options it is common."""
    return ((FULL_HAND, 0), (TRUMPLESS_HAND, 1 if rules.bonus == "best-trump" else 0))


@cache
def _outcomes(rules: Ruleset, before: tuple[int, int] | None = None) -> tuple[_Outcome, ...]:
    """Every way one hand can score (``before`` matters only to ``must_bid_to_go_out``)."""
    found: dict[HandLine, int] = {}
    for total, unusual in _hand_totals(rules):
        for taken in range(0, total + 1, TRICK):
            if not rules.auction:
                line = HandLine(points=(taken, total - taken))
                found[line] = min(found.get(line, unusual), unusual)
                continue
            for bidder in (0, 1):
                for bid in bids_for(rules, (before or (0, 0))[bidder]):
                    split = (taken, total - taken) if bidder == 0 else (total - taken, taken)
                    points = auction_hand_points(split, bidder, bid, before or (0, 0), rules)
                    line = HandLine(points=points, bidder=bidder, bid=bid)
                    found[line] = min(found.get(line, unusual), unusual)
    return tuple(_Outcome(line, unusual) for line, unusual in found.items())


# --- final scores, for games that cannot go below zero --------------------------------------------


@dataclass(frozen=True, slots=True)
class _FinalTable:
    verdicts: dict[tuple[int, int], Verdict]
    max_winner: int
    max_loser: int


def _prefinal_states(rules: Ruleset) -> dict[tuple[int, int], int]:
    """States (both sides under the target, or tied past it under ``play-on`` up to
    ``PLAY_ON_SPAN``) a game can be in before its last hand, with the fewest trumpless hands
    needed to get there (0-1 breadth-first search)."""
    cap = rules.target + PLAY_ON_SPAN
    best = {(0, 0): 0}
    queue: deque[tuple[int, int]] = deque([(0, 0)])
    while queue:
        state = queue.popleft()
        cost = best[state]
        for outcome in _outcomes(rules):
            after, winner = end_of_hand(state, outcome.line, rules)
            if winner is not None or after[0] > cap:
                continue
            new_cost = cost + outcome.unusual
            if new_cost < best.get(after, 1 << 30):
                best[after] = new_cost
                if outcome.unusual:
                    queue.append(after)
                else:
                    queue.appendleft(after)
    return best


def _unusual_verdict(w: int, loser: int, hands: int) -> Verdict:
    return _verdict(
        "unusual",
        "trumpless_hands",
        "one" if hands == 1 else "many",
        {"score": _score(w, loser), "hands": hands},
        trumpless_hands=hands,
    )


@cache
def _final_table(rules: Ruleset) -> _FinalTable:
    finals: dict[tuple[int, int], int] = {}
    for state, cost in _prefinal_states(rules).items():
        for outcome in _outcomes(rules):
            after, winner = end_of_hand(state, outcome.line, rules)
            if winner is None:
                continue
            sides = (0, 1) if winner == -1 else (winner,)
            for side in sides:
                key = (after[side], after[1 - side])
                finals[key] = min(finals.get(key, 1 << 30), cost + outcome.unusual)
    verdicts = {
        key: _ok(*key) if cost == 0 else _unusual_verdict(key[0], key[1], cost)
        for key, cost in finals.items()
    }
    return _FinalTable(
        verdicts=verdicts,
        max_winner=max(w for w, _ in finals),
        max_loser=max(loser for _, loser in finals),
    )


@cache
def _sums_without_stopping(rules: Ruleset, limit: int) -> frozenset[tuple[int, int]]:
    """Scores reachable if hands went on being played past the target (for the reason only)."""
    seen = {(0, 0)}
    frontier = [(0, 0)]
    while frontier:
        nxt = []
        for a, b in frontier:
            for outcome in _outcomes(rules):
                s = (a + outcome.line.points[0], b + outcome.line.points[1])
                if s[0] <= limit and s[1] <= limit and s not in seen:
                    seen.add(s)
                    nxt.append(s)
        frontier = nxt
    return frozenset(seen)


def _play_on_key(w: int, loser: int, rules: Ruleset) -> tuple[int, int]:
    """``play-on``: a final score past the table's span, brought back by 15-15 hands (a game
    tied at x past the target can end only as one tied at x - 15 ends, plus 15 each)."""
    while loser > rules.target + PLAY_ON_SPAN - 10:
        w, loser = w - 15, loser - 15
    return w, loser


def _looked_up(w: int, loser: int, rules: Ruleset) -> Verdict | None:
    """The table's verdict on a final score, in the score's own numbers."""
    verdicts = _final_table(rules).verdicts
    found = verdicts.get((w, loser))
    if found is not None or rules.equal_totals != "play-on":
        return found
    key = _play_on_key(w, loser, rules)
    found = verdicts.get(key)
    if found is None or key == (w, loser):
        return found
    if found.status == "ok":
        return _ok(w, loser)
    return _unusual_verdict(w, loser, found.trumpless_hands)


def _reason(w: int, loser: int, rules: Ruleset, table: _FinalTable) -> Verdict:
    score = _score(w, loser)
    target = rules.target
    play_on = rules.equal_totals == "play-on"
    five_tricks = "five_tricks" if rules.jink_wins_game else ""
    if w < target:
        return _impossible("winner_below_target", five_tricks, score=score, target=target)
    if loser > w:
        return _impossible("loser_ahead", score=score)
    if w > table.max_winner and not play_on:
        return _impossible("too_many_points", "winner", score=score, most=table.max_winner)
    if loser > table.max_loser and not play_on:
        return _impossible("too_many_points", "loser", score=score, most=table.max_loser)
    if play_on and w == loser:
        return _impossible("tie_played_on", score=score, target=target)
    if (w, loser) in _sums_without_stopping(rules, max(w, loser)):
        return _impossible("game_already_won", five_tricks, score=score, target=target)
    return _impossible(
        "not_whole_hands",
        score=score,
        total=w + loser,
        full=FULL_HAND,
        trumpless=TRUMPLESS_HAND,
    )


# --- final scores in auction ---------------------------------------------------------------------


def _auction_final(w: int, loser: int, rules: Ruleset) -> Verdict:
    target = rules.target
    floor = rules.floor
    best: int | None = None
    for bidder in (0, 1):
        for bid in BIDS:
            for total, unusual in _hand_totals(rules):
                for taken in range(0, total + 1, TRICK):
                    split = (taken, total - taken) if bidder == 0 else (total - taken, taken)
                    for guarded in (False, True) if rules.must_bid_to_go_out else (False,):
                        before_hint = (0, 0)
                        if guarded:
                            before_hint = (target, target)  # defender on 100+: scores nothing
                        points = auction_hand_points(split, bidder, bid, before_hint, rules)
                        before = (w - points[0], loser - points[1])
                        if before[0] >= target or before[1] >= target:
                            continue
                        if floor is not None and min(before) <= floor:
                            continue  # that side had already lost at the floor
                        if bid not in bids_for(rules, before[bidder]):
                            continue
                        if rules.must_bid_to_go_out:
                            defender_guarded = before[1 - bidder] >= 100
                            if defender_guarded != guarded:
                                continue
                        line = HandLine(points=points, bidder=bidder, bid=bid)
                        _, winner = end_of_hand(before, line, rules)
                        if winner in (0, -1) and (best is None or unusual < best):
                            best = unusual
    if best == 0:
        return _ok(w, loser, "possible")
    if best is not None:
        return _unusual_verdict(w, loser, 1)
    score = _score(w, loser)
    if w < target and not rules.jink_wins_game and (floor is None or loser > floor):
        if floor is None:
            return _impossible("winner_below_target", score=score, target=target)
        return _impossible("winner_below_target", "floor", score=score, target=target, floor=floor)
    bidder_max = 60 if rules.thirty_for_sixty else FULL_HAND
    if w > target - TRICK + bidder_max:
        return _impossible(
            "too_many_points", "winner", score=score, most=target - TRICK + bidder_max
        )
    if loser > w:
        return _impossible("loser_ahead", "auction", score=score, target=target)
    return _impossible("not_reachable", score=score)


# --- public --------------------------------------------------------------------------------------


def _number_problem(
    values: Iterable[object], rules: Ruleset, hand: int | None = None
) -> Verdict | None:
    """The first value that is not a possible number of points (in a score sheet's ``hand``)."""
    wording = "" if hand is None else "sheet"
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool):
            return _impossible("not_a_number", wording, hand=hand, value=repr(value))
        if value % TRICK:
            return _impossible("not_multiple_of_five", wording, hand=hand, value=value)
        if value < 0 and not rules.auction:
            return _impossible("negative_points", wording, hand=hand, value=value)
    return None


def check_final_score(winner_points: int, loser_points: int, rules: Ruleset) -> Verdict:
    """Judge a game's final score, given as the named winner's points and the loser's."""
    if not rules.auction and type(winner_points) is int and type(loser_points) is int:
        found = _looked_up(winner_points, loser_points, rules)
        if found is not None:
            return found
    problem = _number_problem((winner_points, loser_points), rules)
    if problem is not None:
        return problem
    if rules.auction:
        return _auction_final(winner_points, loser_points, rules)
    return _reason(winner_points, loser_points, rules, _final_table(rules))


def check_final_points(points: Sequence[int], winner: int, rules: Ruleset) -> Verdict:
    """The same for points entered in seat order (``points[0]`` for side 0) with the winning
    side named (0 or 1): the order of entry does not matter, the winner does."""
    if winner not in (0, 1) or len(points) != 2:
        return _impossible("bad_side")
    return check_final_score(points[winner], points[1 - winner], rules)


def check_final_scores(scores: Iterable[tuple[int, int]], rules: Ruleset) -> Iterator[Verdict]:
    """Verdicts for many (winner, loser) final scores, e.g. a whole night's results."""
    if rules.auction:
        for w, loser in scores:
            yield check_final_score(w, loser, rules)
        return
    table = _final_table(rules).verdicts
    for key in scores:
        found = table.get(key) if type(key[0]) is int and type(key[1]) is int else None
        yield found if found is not None else check_final_score(key[0], key[1], rules)


def legal_final_scores(rules: Ruleset, *, include_unusual: bool = False) -> list[tuple[int, int]]:
    """The (winner, loser) final scores that are ``ok`` (and ``unusual`` if asked), winner
    first, highest first: the choices a score picker offers. Not for auction, whose scores are
    unbounded below. Under ``equal_totals: play-on`` games tied again and again have no upper
    bound: the list stops at games tied ``PLAY_ON_SPAN`` past the target."""
    if rules.auction:
        raise ValueError("Auction final scores are unbounded; check them one by one.")
    table = _final_table(rules).verdicts
    wanted = ("ok", "unusual") if include_unusual else ("ok",)
    return sorted((k for k, v in table.items() if v.status in wanted), key=lambda k: (-k[0], k[1]))


# --- score sheets ---------------------------------------------------------------------------------


def _auction_line_problem(line: HandLine, before: tuple[int, int], rules: Ruleset) -> str | None:
    """None if the line's points follow from its bid and some tricks taken; else a reason."""
    if line.bidder is None or line.bid is None:
        return "missing_bid"
    if line.bidder not in (0, 1):
        return "bad_side"
    if line.bid not in bids_for(rules, before[line.bidder]):
        return "bad_bid"
    for total, _ in _hand_totals(rules):
        for taken in range(0, total + 1, TRICK):
            split = (taken, total - taken) if line.bidder == 0 else (total - taken, taken)
            if auction_hand_points(split, line.bidder, line.bid, before, rules) == line.points:
                return None
    return "bad_auction_points"


def _line_unusual(line: HandLine, rules: Ruleset) -> int:
    if rules.bonus != "best-trump":
        return 0
    if not rules.auction:
        return 1 if sum(line.points) == TRUMPLESS_HAND else 0
    # Auction: unusual if the points can only come from a 25-point hand.
    assert line.bidder is not None and line.bid is not None
    for taken in range(0, FULL_HAND + 1, TRICK):
        split = (taken, FULL_HAND - taken) if line.bidder == 0 else (FULL_HAND - taken, taken)
        for before in ((0, 0), (rules.target, rules.target)):
            if auction_hand_points(split, line.bidder, line.bid, before, rules) == line.points:
                return 0
    return 1


def check_score_sheet(
    lines: Sequence[HandLine],
    rules: Ruleset,
    *,
    final: tuple[int, int] | None = None,
    winner: int | None = None,
) -> Verdict:
    """Judge a hand-by-hand score sheet (``lines[i].points`` = what each side scored in hand
    i+1), hand by hand: each hand must be a possible hand, no hand may follow the end of the
    game, the last hand must end it, and the totals must equal ``final`` (per side) and name
    ``winner`` (side 0 or 1) when given."""
    if not lines:
        return _impossible("empty_sheet")
    totals = (0, 0)
    trumpless = 0
    game_winner: int | None = None
    for number, line in enumerate(lines, start=1):
        if game_winner is not None:
            return _impossible("hand_after_game_won", hand=number, score=_score(*totals))
        problem = _number_problem(line.points, rules, number)
        if problem is not None:
            return problem
        if rules.auction:
            code = _auction_line_problem(line, totals, rules)
            if code is not None:
                return _impossible(code, "sheet", hand=number, score=_score(*line.points))
        elif sum(line.points) not in (FULL_HAND, TRUMPLESS_HAND):
            return _impossible(
                "bad_hand_total",
                hand=number,
                score=_score(*line.points),
                total=sum(line.points),
                full=FULL_HAND,
                trumpless=TRUMPLESS_HAND,
            )
        trumpless += _line_unusual(line, rules)
        totals, game_winner = end_of_hand(totals, line, rules)
    last = len(lines)
    if game_winner is None:
        return _impossible(
            "game_not_finished", hand=last, score=_score(*totals), target=rules.target
        )
    if final is not None and tuple(final) != totals:
        return _impossible("final_mismatch", hand=last, score=_score(*totals), final=_score(*final))
    if winner is not None and game_winner != -1 and winner != game_winner:
        return _impossible(
            "wrong_winner", hand=last, score=_score(*totals), side=game_winner, winner=winner
        )
    if trumpless:
        return _verdict(
            "unusual",
            "trumpless_hands",
            "sheet_one" if trumpless == 1 else "sheet_many",
            {"hands": trumpless},
            trumpless_hands=trumpless,
        )
    return _ok(*totals, wording="sheet")
