"""The night's results and what is built on them, one room a concept.

- here, at the root: results (and their versions), the advance, standings with places
  (``models``, ``services``, ``selectors``), the stored night's checks (``integrity``), the
  bots' simulation and the results import;
- ``scoring.prizes``: prizes, ties and their settling, the booby prize, the cookie jar;
- ``scoring.printing``: the printed documents (asking, the print task, rendering, the PDFs);
- ``scoring.records``: the drive's full record out (``export``) and back in (``restore``);
- ``scoring.pages``: the organizer's pages and the live pages (desk, phones, projector,
  standings, prizes, print), with their URLs;
- ``scoring.api``: scoring's endpoints of the JSON API (a router on the site's ``api``);
  ``scoring.management``: the command line.

A room imports only the rooms listed before it (import-linter's contracts in pyproject.toml).
Builds on ``drives`` (never the other way round) and on the rules in ``engine``.
"""
