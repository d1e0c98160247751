"""Legal plays, trick winners and hand scores: docs/rules.md §3 and §4, each condition both ways."""

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.play import IllegalPlay, check_play, legal_plays, score_hand, trick_winner
from engine.rules import get_ruleset, make_ruleset

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")
S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS


def legal(hand: str, trick: str, trump: Suit, rules=CB) -> set[str]:
    return {str(c) for c in legal_plays(parse_cards(hand), parse_cards(trick), trump, rules)}


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "expected", "why"),
    [
        ("KH 2C 3S", "", S, {"KH", "2C", "3S"}, "leading: any card"),
        # Rule 1: a non-trump suit led.
        ("KH 2C 3S", "9H", S, {"KH", "3S"}, "follow suit or trump, not a third suit"),
        ("KH 2C", "9H", S, {"KH"}, "holding the suit and no trump: the suit"),
        ("2C 3S", "9H", S, {"2C", "3S"}, "none of the suit: any card"),
        ("AH 2C", "9H", S, {"AH", "2C"}, "the A♥ is no heart: none of the suit"),
        ("AH 5H 2C", "9H", S, {"AH", "5H"}, "the A♥ may trump a heart lead"),
        ("5D JD 2C 9C", "KC", D, {"5D", "JD", "2C", "9C"}, "top trumps may trump a plain lead"),
        # Rule 2: a trump led.
        ("2S KH", "QS", S, {"2S"}, "an ordinary trump must follow"),
        ("JS KH", "QS", S, {"JS", "KH"}, "a top trump above the led one may renege"),
        ("JS 2S KH", "QS", S, {"JS", "2S"}, "with an ordinary trump too, a trump must be played"),
        ("JS KH", "5S", S, {"JS"}, "no renege against a higher trump"),
        ("AH KD", "JS", S, {"AH"}, "the A♥ cannot renege against the J"),
        ("AH 2C", "AS", S, {"AH", "2C"}, "the A♥ reneges against the ace of trumps"),
        ("KH 2C", "3S", S, {"KH", "2C"}, "no trump in hand: any card"),
        ("5H 2C", "AH", H, {"5H", "2C"}, "hearts trumps: the 5 reneges against the A♥"),
        ("KH 2C", "AH", H, {"KH"}, "hearts trumps: the K must follow the A♥"),
        # Rule 3: the A♥ led when hearts are not trumps.
        ("KH 2C", "AH", S, {"KH"}, "no trump: a heart must be played"),
        ("KD 2C", "AH", S, {"KD", "2C"}, "no trump and no heart: any card"),
        ("5S KH 2C", "AH", S, {"5S", "KH"}, "reneging trump kept: heart or that trump"),
        ("5S KD 2C", "AH", S, {"5S", "KD", "2C"}, "reneging trump and no heart: any card"),
        ("KS KH", "AH", S, {"KS"}, "an ordinary trump must follow the A♥"),
    ],
)
def test_legal_plays(hand: str, trick: str, trump: Suit, expected: set[str], why: str) -> None:
    assert legal(hand, trick, trump) == expected, why


@pytest.mark.parametrize(
    ("hand", "trick", "expected"),
    [
        ("JK KD", "AH", {"JK", "KD"}),  # the joker outranks the A♥: it may renege
        ("JK KD", "JS", {"JK"}),  # but not against the J
        ("JK KH 2C", "AH", {"JK", "KH"}),
        ("AH 2C", "JK", {"AH"}),  # the A♥ cannot renege against the joker
    ],
)
def test_the_joker_reneges_like_a_top_trump(hand: str, trick: str, expected: set[str]) -> None:
    # The joker among the top trumps (renege: top-trumps; the Irish preset reneges the 5 only).
    joker_top = make_ruleset("irish-45-joker", renege="top-trumps")
    assert legal(hand, trick, S, joker_top) == expected


def test_check_play_names_the_rule() -> None:
    with pytest.raises(IllegalPlay) as info:
        check_play(Card.parse("2C"), parse_cards("KH 2C 3S"), parse_cards("9H"), S, CB)
    assert info.value.code == "must_follow_suit"
    with pytest.raises(IllegalPlay) as info:
        check_play(Card.parse("KH"), parse_cards("2S KH"), parse_cards("QS"), S, CB)
    assert info.value.code == "must_follow_trump"
    with pytest.raises(IllegalPlay) as info:
        check_play(Card.parse("2C"), parse_cards("KH 2C"), parse_cards("AH"), S, CB)
    assert info.value.code == "must_follow_hearts"
    with pytest.raises(IllegalPlay) as info:
        check_play(Card.parse("AD"), parse_cards("KH 2C"), parse_cards(""), S, CB)
    assert info.value.code == "not_in_hand"
    check_play(Card.parse("3S"), parse_cards("KH 2C 3S"), parse_cards("9H"), S, CB)


ACES_HIGH = make_ruleset(offsuit_aces_high=True)


@pytest.mark.parametrize(
    ("trick", "trump", "winner", "rules"),
    [
        ("3H KH 2S AH", S, 3, CB),  # the A♥ beats the 2 of trumps
        ("3H KH 2C QH", S, 1, CB),  # no trump: highest heart
        ("KC 2S 5S JS", S, 2, CB),  # the 5 of trumps is best
        ("AS AH JS 2C", S, 2, CB),  # J above the A♥ above the ace of trumps
        ("KC AC 2C 10C", S, 0, CB),  # black: K over A over 2 over 10
        ("2C AC 10C QD", S, 1, CB),  # black low: the ace above the 2
        ("2D AD 3D 4D", S, 3, CB),  # red high: the ace of diamonds is lowest
        ("KC AC QC JC", S, 1, ACES_HIGH),
        ("10C 9C KD QD", S, 1, CB),  # black low: the 9 beats the 10; off-suit kings lose
        ("10S 9S 2S 3S", S, 2, CB),  # trumps black low too
        ("2H 10H KD QD", H, 1, CB),  # red trumps high
        ("AH JK 2C 3C", S, 1, IRISH),
        ("JS JK 2C 3C", S, 0, IRISH),
    ],
)
def test_trick_winner(trick: str, trump: Suit, winner: int, rules) -> None:
    assert trick_winner(parse_cards(trick), trump, rules) == winner


def tricks(*texts: str) -> list[list[Card]]:
    return [parse_cards(t) for t in texts]


WITH_FIVE = tricks("5S 2C 3C 4C", "KD QD 2D 3D", "JS 7H 8H 9H", "6C 7C 8C 9C", "10D 9D 8D 7D")
WITH_J_NOT_FIVE = tricks("JS 2C 3C 4C", "KD QD 2D 3D", "2S 7H 8H 9H", "6C 7C 8C 9C", "10D 9D 8D 7D")
LOW_TRUMPS_ONLY = tricks("KS 2C 3C 4C", "KD QD 2D 3D", "2S 7H 8H 9H", "6C 7C 8C 9C", "10D 9D 8D 7D")
NO_TRUMP = tricks("KH 2C 3C 4C", "KD QD 2D 3D", "QH 7H 8H 9H", "6C 7C 8C 9C", "10D 9D 8D 7D")
SIDES = [0, 0, 0, 1, 1]


@pytest.mark.parametrize(
    ("hand", "bonus", "points", "bonus_trick"),
    [
        (WITH_FIVE, "best-trump", (20, 10), 0),
        (WITH_J_NOT_FIVE, "best-trump", (20, 10), 0),
        (LOW_TRUMPS_ONLY, "best-trump", (20, 10), 0),
        (NO_TRUMP, "best-trump", (15, 10), None),
        (WITH_FIVE, "five-of-trumps", (20, 10), 0),
        (WITH_J_NOT_FIVE, "five-of-trumps", (15, 10), None),
        (NO_TRUMP, "five-of-trumps", (15, 10), None),
        (WITH_FIVE, "top-four", (20, 10), 0),
        (WITH_J_NOT_FIVE, "top-four", (20, 10), 0),
        (LOW_TRUMPS_ONLY, "top-four", (15, 10), None),
    ],
)
def test_hand_scores_with_each_bonus_option(
    hand: list[list[Card]], bonus: str, points: tuple[int, int], bonus_trick: int | None
) -> None:
    rules = make_ruleset(bonus=bonus)
    score = score_hand(hand, SIDES, S, rules)
    assert score.points == points and score.bonus_trick == bonus_trick
    assert score.total == (30 if bonus_trick is not None else 25)
    assert score.tricks == (3, 2) and score.jink is None


def test_the_a_of_hearts_earns_the_bonus_under_top_four() -> None:
    hand = tricks("AH 2C 3C 4C", "KS QD 2D 3D", "2S 7H 8H 9H", "6C 7C 8C 9C", "10D 9D 8D 7D")
    score = score_hand(hand, [1, 1, 1, 1, 1], S, make_ruleset(bonus="top-four"))
    assert score.points == (0, 30) and score.jink == 1


def test_the_25_point_hand_without_any_trump() -> None:
    score = score_hand(NO_TRUMP, [0, 0, 0, 0, 0], S, CB)
    assert score.points == (25, 0) and not score.trump_played and score.jink == 0
