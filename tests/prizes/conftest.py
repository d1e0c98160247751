"""The API fixtures (``api``, ``ours``, ``theirs``) for the prize tests."""

from tests.api.conftest import api, ours, theirs  # noqa: F401
