"""The database is really PostgreSQL when DATABASE_URL says so (the CI's second pass)."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

pytestmark = [pytest.mark.integration, pytest.mark.postgres, pytest.mark.django_db]


def test_queries_run_on_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database(), version()")
        database, version = cursor.fetchone()
    assert database.startswith("test_")
    assert version.startswith("PostgreSQL")


def test_the_migrated_schema_is_there() -> None:
    user_model = get_user_model()
    user_model.objects.create_user("scorer", password="x")
    assert user_model.objects.filter(username="scorer").count() == 1
