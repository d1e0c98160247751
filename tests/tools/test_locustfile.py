"""The load figures' locustfile loads in locust as it is (no night, no server): the people of
a hall night are its users. Run in a process of its own: importing locust patches the
standard library for gevent."""

import subprocess
import sys

from tools.load import LOCUSTFILE
from tools.stack import BASE_DIR


def locust(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), *args],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_the_users_are_the_people_of_a_hall_night() -> None:
    listed = locust("--list").split()
    people = ["TablePhone", "CouplePhone", "Desk", "Projector", "Organizer"]
    assert all(user in listed for user in [*people, "SteadyPhone", "Livez"]), listed
