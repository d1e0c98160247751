"""The system cut (docs/rules.md §9): what the hall sees when the computer cuts for a tie. Each
round's cards are dealt from a shuffled pack, the lowest card wins (or the highest in a high
cut), and only the couples who drew the winning card cut again."""

import pytest

from engine.prizes import PrizeError, cut_rank, draw_cut

SEEDS = range(300)


@pytest.mark.parametrize(
    "options",
    [{}, {"ace_high": True}, {"highest": True}, {"ace_high": True, "highest": True}],
)
def test_every_round_is_won_by_the_right_card(options: dict[str, bool]) -> None:
    """With no options the lowest card wins and an ace is the lowest card."""
    ace_high, highest = options.get("ace_high", False), options.get("highest", False)
    aces_decided = 0
    for seed in SEEDS:
        rounds = draw_cut([2, 5, 7, 11], seed, **options)
        expected_couples = [2, 5, 7, 11]
        for number, cut in enumerate(rounds, start=1):
            drawn = dict(cut.cards)
            assert sorted(drawn) == expected_couples
            assert len(set(drawn.values())) == len(drawn)  # one pack: no card twice
            ranks = {c: cut_rank(card, ace_high=ace_high) for c, card in drawn.items()}
            best = max(ranks.values()) if highest else min(ranks.values())
            assert cut.lowest == tuple(c for c in sorted(ranks) if ranks[c] == best)
            assert cut.decided == (number == len(rounds))
            expected_couples = list(cut.lowest)
            if any(card.rank == 14 for card in drawn.values()):
                aces_decided += 1
    assert aces_decided > 0  # the aces' rank was put to the test


def test_the_shuffle_decides_who_wins_a_cut() -> None:
    winners = {draw_cut([1, 2, 3], seed)[-1].lowest[0] for seed in SEEDS}
    assert winners == {1, 2, 3}
    firsts = {draw_cut([1, 2], seed)[0].cards for seed in range(20)}
    assert len(firsts) > 1


def test_a_cut_of_one_couple_is_refused() -> None:
    with pytest.raises(PrizeError) as info:
        draw_cut([4, 4], seed=1)
    assert (info.value.code, str(info.value)) == ("not_a_tie", "A cut needs two or more couples.")
