"""What a prize's share is a share of: the night's entry money and its pot, as the night's money
(``money``, above scoring) reads them from its ledger. The money app registers its reader here
(``money.apps``); without one (scoring alone) both are zero.

A share is ``percent`` of its base, rounded *down* to the set-up's ``share_rounding`` (the
cent, the dollar, five dollars…): the hall never pays more than the share, and what the
rounding leaves over stays in the night's takings (the hall's).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_DOWN, Decimal

from drives.models import Drive

ZERO = Decimal("0.00")
#: The reader of a drive's takings: ``{"entry": …, "pot": …}``.
Reader = Callable[[Drive], dict[str, Decimal]]
_readers: list[Reader] = []


def register(reader: Reader) -> None:
    """The night's money's reader of the takings (registered once, at start)."""
    if reader not in _readers:
        _readers.append(reader)


def takings(drive: Drive) -> dict[str, Decimal]:
    """The entry money and the pot of the night so far (zero without the money app)."""
    found = {"entry": ZERO, "pot": ZERO}
    for reader in _readers:
        found |= reader(drive)
    return found


def share(base: Decimal, percent: int, unit: Decimal) -> Decimal:
    """``percent`` of ``base`` rounded down to ``unit`` (never below zero)."""
    if base <= 0 or unit <= 0:
        return ZERO
    exact = Decimal(base) * percent / 100
    units = (exact / unit).to_integral_value(rounding=ROUND_DOWN)
    return (units * unit).quantize(Decimal("0.01"))
