"""Scoring's endpoints of the JSON API under ``/api/v1/`` (docs/api.md): phones, scoreboards,
scripts and tests reach every action of the night here. A router (``views``) with its bodies
(``schemas``), mounted on the site's API (the top-level ``api`` package) by ``config.urls``.
Views parse, authorise, call a service or a selector and render JSON; the night's rules stay in
``drives.services``, ``scoring.services`` and the selectors."""
