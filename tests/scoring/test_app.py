from django.apps import apps


def test_scoring_app_is_installed() -> None:
    assert apps.get_app_config("scoring").verbose_name == "Scoring"
