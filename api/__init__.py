"""The site's JSON API under ``/api/v1/`` (docs/api.md), shared by every app that has
endpoints: the ``NinjaAPI`` and its description (``api.site``), the body's parser, the error
answers and the one refusal translator (``api.errors``), the error schema and ``answers``
(``api.schemas``), the callers and what they may reach (``api.auth``) and the URLs
(``api.urls``). The endpoints themselves are the apps' routers (``scoring.api.views``,
``money.api``, ``seasons.api``, ``practice.api``), mounted in ``config.urls``; this package
imports none of them."""
