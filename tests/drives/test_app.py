from django.apps import apps


def test_drives_app_is_installed() -> None:
    assert apps.get_app_config("drives").verbose_name == "Drives"
