"""factory_boy factories shared by the tests of every app."""

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "a-test-password"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Faker("first_name")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password(DEFAULT_PASSWORD)
