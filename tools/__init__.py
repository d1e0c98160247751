"""Tools that run the product from outside: the production stack on one machine and the clients
that play a night against it.

``python -m tools.stack`` (``make stack``) starts gunicorn and a Celery worker with the
production settings (docs/deploy.md); ``python -m tools.load`` (``make load``) sets nights up
on such a stack (night.py) and plays them with locust (locustfile.py: BENCHMARKS.md, Load);
loadgen.py is the burst and crash tests' own client. The integration tests drive them from
Python. They sit above everything: they may import ``config`` and the apps,
and only the tests and scripts/ import them.
"""
