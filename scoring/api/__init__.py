"""The JSON API under ``/api/v1/`` (docs/api.md): phones, scoreboards, scripts and tests reach
every action of the night here. Views parse, authorise, call a service or a selector and render
JSON; the night's rules stay in ``drives.services``, ``scoring.services`` and the selectors."""
