"""Results (and their versions), standings, ties, prizes and printing.

Builds on ``drives`` (never the other way round) and on the rules in ``engine``.
"""
