"""Tools that run the product from outside: the production stack on one machine and the load
generator that plays a night against it.

``python -m tools.stack`` (``make stack``) starts gunicorn and a Celery worker with the
production settings (docs/deploy.md); ``python -m tools.loadgen`` (``make load``) sets a night
up on such a stack and plays it through the JSON API (BENCHMARKS.md, Load). The integration
tests drive both from Python. They sit above everything: they may import ``config`` and the apps,
and only the tests and scripts/ import them.
"""
