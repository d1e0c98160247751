"""Prizes and ties (docs/rules.md §8–§10): the prize set-up, the prize table, settling ties
(split, cut, play-off), the booby prize and the cookie jar. ``services`` writes, ``selectors``
reads; the pages and the API call them."""
