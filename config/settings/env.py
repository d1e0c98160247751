"""Reading settings from the environment.

:class:`Environment` declares every variable the settings read (README.md's table): its name,
its type and its default. pydantic-settings reads them from the process's environment
(``read()``), pydantic checks each (a boolean is true/false, yes/no, on/off or 1/0; a number a
whole number; a list comma-separated) and the settings refuse to load naming the variable and
its value (``ImproperlyConfigured``). The functions below turn the variables into Django's
settings (the database, the cache, e-mail, Celery); the settings modules call them, nothing
else should. ``read(mapping)`` checks a given mapping the same way, for the tests.
"""

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import PydanticUseDefault
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)


def _flag(raw: Any) -> Any:
    """An empty variable is false; the rest is pydantic's reading of a boolean."""
    if isinstance(raw, str):
        raw = raw.strip()
        return raw or False
    return raw


def _whole(raw: Any) -> Any:
    """An empty variable is the default; the rest is pydantic's reading of an integer."""
    if isinstance(raw, str) and not raw.strip():
        raise PydanticUseDefault()
    return raw


def _names(raw: Any) -> Any:
    """A comma-separated list, blanks dropped."""
    if isinstance(raw, str):
        return [item.strip() for item in raw.split(",") if item.strip()]
    return raw


def _networks(items: list[str], info: ValidationInfo) -> list[str]:
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(
                f"{info.field_name}={item!r} is not an IP address or network (e.g. 10.0.0.0/24)"
            ) from None
    return items


def _threshold(raw: Any) -> Any:
    """``none``: never prepare; empty: the default."""
    if isinstance(raw, str) and raw.strip().lower() == "none":
        return None
    return _whole(raw)


Flag = Annotated[bool, BeforeValidator(_flag)]
Whole = Annotated[int, BeforeValidator(_whole)]
# A list from one variable: never JSON (pydantic-settings' default for a list), always commas.
Names = Annotated[list[str], NoDecode, BeforeValidator(_names)]
Networks = Annotated[list[str], NoDecode, BeforeValidator(_names), AfterValidator(_networks)]
Text = Annotated[str, BeforeValidator(lambda raw: raw.strip() if isinstance(raw, str) else raw)]

# pydantic's words for a refused value, said as the settings' refusals say them.
REFUSALS = {
    "bool_parsing": "is not a boolean (use true or false)",
    "int_parsing": "is not an integer",
}


class Environment(BaseSettings):
    """Every variable the settings read, its type and its default (README.md, "Configuration").

    ``None`` is "unset" where the settings module decides the default (``DEBUG``: on in
    development only; ``ALLOWED_HOSTS``: required in production, the hall's addresses in the
    hall; ``DEMO_COMMAND_ALLOWED``: off in production and in the hall)."""

    model_config = SettingsConfigDict(case_sensitive=True, extra="ignore", frozen=True)

    # Django's own
    SECRET_KEY: str = ""
    DEBUG: Flag | None = None
    ALLOWED_HOSTS: Names | None = None
    CSRF_TRUSTED_ORIGINS: Names = []
    STATIC_ROOT: Text = ""
    MEDIA_ROOT: Text = ""
    LOG_LEVEL: Text = "INFO"
    DEMO_COMMAND_ALLOWED: Flag | None = None
    PRINT_QUEUED_TIMEOUT: Whole = 120
    HEALTHZ_BROKER_TIMEOUT: Whole = 2
    CSV_MAX_BYTES: Whole = 1_000_000
    # the database
    DATABASE_URL: Text = ""
    CONN_MAX_AGE: Whole = 60
    DATABASE_SERVER_SIDE_BINDING: Flag = True
    DATABASE_PREPARE_THRESHOLD: Annotated[int | None, BeforeValidator(_threshold)] = 5
    # the cache and the pages' events
    CACHE_URL: Text = ""
    CACHE_TIMEOUT: Whole = 1
    PAGE_EVENTS: Annotated[Literal["", "local", "redis"], BeforeValidator(str.strip)] = ""
    PAGE_EVENTS_URL: Text = "/events/"
    PAGE_EVENTS_REDIS_URL: Text = ""
    PAGE_EVENTS_CHANNEL: str = "fortyfives:pages"
    # e-mail
    EMAIL_URL: Text = ""
    EMAIL_HOST: Text = ""
    EMAIL_PORT: Whole = 0
    EMAIL_HOST_USER: str = ""
    EMAIL_HOST_PASSWORD: str = ""
    EMAIL_USE_TLS: Flag = False
    EMAIL_USE_SSL: Flag = False
    EMAIL_TIMEOUT: Whole = 10
    DEFAULT_FROM_EMAIL: Text = ""
    # Celery
    CELERY_BROKER_URL: Text = ""
    CELERY_RESULT_BACKEND: Text = ""
    CELERY_TASK_SOFT_TIME_LIMIT: Whole = 300
    CELERY_TASK_TIME_LIMIT: Whole = 360
    CELERY_VISIBILITY_TIMEOUT: Whole = 3600
    # production (config/settings/prod.py)
    SECURE_SSL_REDIRECT: Flag = True
    SECURE_COOKIES: Flag = True
    SECURE_HSTS_SECONDS: Whole = 31_536_000
    SECURE_HSTS_INCLUDE_SUBDOMAINS: Flag = True
    SECURE_HSTS_PRELOAD: Flag = True
    TRUST_X_FORWARDED_FOR: Flag = False
    TRUSTED_PROXIES: Networks = ["127.0.0.1", "::1"]
    # the hall (config/settings/hall.py; fortyfives sets the first three)
    HALL_DATA_DIR: Text = ""
    HALL_URL: Text = ""
    HALL_HOSTNAME: Text = ""
    HALL_BACKUPS: Whole = 5
    HALL_DISK_MIN_FREE_MB: Whole = 200

    @model_validator(mode="after")
    def _rules_between_variables(self) -> "Environment":
        if self.EMAIL_URL and self.EMAIL_HOST:
            raise ValueError("Set EMAIL_URL or EMAIL_HOST (with EMAIL_PORT…), not both")
        if self.EMAIL_USE_TLS and self.EMAIL_USE_SSL:
            raise ValueError(NOT_BOTH_TLS_AND_SSL)
        soft, hard = self.CELERY_TASK_SOFT_TIME_LIMIT, self.CELERY_TASK_TIME_LIMIT
        visibility = self.CELERY_VISIBILITY_TIMEOUT
        if not 0 < soft < hard < visibility:
            raise ValueError(
                f"CELERY_TASK_SOFT_TIME_LIMIT ({soft} s) < CELERY_TASK_TIME_LIMIT ({hard} s) < "
                f"CELERY_VISIBILITY_TIMEOUT ({visibility} s) does not hold: a task gets its "
                "soft limit first and is killed at the hard one, and Redis must not hand a task "
                "still running to another worker; set each longer than the one before, all "
                "above 0"
            )
        return self


NOT_BOTH_TLS_AND_SSL = (
    "E-mail: use TLS (STARTTLS, usually port 587) or SSL (usually port 465), not both"
)


def refusal(error: ValidationError, within: str = "") -> str:
    """What was refused, each variable by its name and value, one line each."""
    lines = []
    for problem in error.errors():
        name = ".".join(str(part) for part in problem["loc"])
        if problem["type"] in REFUSALS:
            lines.append(f"{within}{name}={problem['input']!r} {REFUSALS[problem['type']]}")
        elif problem["type"] == "value_error":  # our own words, naming what they refuse
            lines.append(within + problem["msg"].removeprefix("Value error, "))
        else:
            lines.append(f"{within}{name}={problem['input']!r}: {problem['msg']}")
    return "; ".join(lines)


class _Given(Environment):
    """The same variables, from a given mapping alone (nothing of the process's environment)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


def read(environ: Mapping[str, str] | None = None) -> Environment:
    """The variables: the process's environment (pydantic-settings reads it), or ``environ``
    alone, checked the same way. ``ImproperlyConfigured`` names what is refused."""
    try:
        return Environment() if environ is None else _Given.model_validate(dict(environ))
    except ValidationError as error:
        raise ImproperlyConfigured(refusal(error)) from None


# The embedded default: one laptop, one SQLite file, several processes (web server, tasks)
# writing to it, through Django's own SQLite backend and its options. WAL lets readers go on
# while one writer writes; IMMEDIATE takes the write lock at BEGIN, so two writers queue on the
# busy timeout (``timeout``, 20 s) instead of failing with "database is locked" half-way
# through a transaction; synchronous=NORMAL is durable across a crash of the application in WAL
# mode. Connections are kept between requests (CONN_MAX_AGE), as on PostgreSQL: opening one
# reads the schema and sets the journal again, and closing the last one checkpoints the WAL,
# which together cost more than a result's whole submission.
SQLITE_ENGINE = "django.db.backends.sqlite3"
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# The hall's server (config/settings/hall.py) commits at synchronous=FULL: NORMAL in WAL mode
# does not sync the WAL at each commit, and SQLite's documentation says such a transaction
# "might roll back following a power loss or system crash", which on a laptop at a hall (its
# battery run down, its plug pulled) would lose a result the phone was told was stored. FULL
# syncs the WAL before the commit returns (BENCHMARKS.md, "A power cut loses nothing
# acknowledged": what it costs a result). The quick demo (make run) and the tests keep NORMAL:
# their data is thrown away, and an fsync per commit would only slow them.
HALL_SQLITE_INIT_COMMAND = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"


# PostgreSQL through psycopg 3. DATABASE_SERVER_SIDE_BINDING (default true: Django's
# "server_side_binding") sends the parameters apart from the statement; psycopg then prepares
# a statement once a connection has run it DATABASE_PREPARE_THRESHOLD times (default 5,
# psycopg's; "none": never; Django passes None unless told) and afterwards sends its name and
# parameters only: a result's statements are parsed and planned once per connection, and a
# PUT costs the web process about 0.5 ms less (BENCHMARKS.md, "Result path on the ORM").
# With client-side binding (false, Django's default) nothing is prepared. A pooler in
# transaction mode (PgBouncer's pool_mode = transaction) cannot keep prepared statements:
# connect directly, or set DATABASE_PREPARE_THRESHOLD=none.
POSTGRES_ENGINE = "django.db.backends.postgresql"


def postgres_options(env: Environment) -> dict[str, Any]:
    """psycopg's connection options from the environment (see above)."""
    if not env.DATABASE_SERVER_SIDE_BINDING:
        return {}
    return {"server_side_binding": True, "prepare_threshold": env.DATABASE_PREPARE_THRESHOLD}


def database_settings(env: Environment, base_dir: Path) -> dict[str, Any]:
    """``DATABASES["default"]``: from ``DATABASE_URL``, else SQLite at base_dir/db.sqlite3."""
    url = env.DATABASE_URL
    max_age = env.CONN_MAX_AGE
    if not url:
        return {
            "ENGINE": SQLITE_ENGINE,
            "NAME": base_dir / "db.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
            "CONN_MAX_AGE": max_age,
        }
    config: dict[str, Any] = dict(
        dj_database_url.parse(url, conn_max_age=max_age, conn_health_checks=True)
    )
    if config["ENGINE"] == SQLITE_ENGINE:
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    elif config["ENGINE"] == POSTGRES_ENGINE:
        config["OPTIONS"] = {**postgres_options(env), **config.get("OPTIONS", {})}
    return config


LOCMEM_ENTRIES = 10_000


def cache_settings(env: Environment) -> dict[str, Any]:
    """``CACHES["default"]``: Redis from ``CACHE_URL`` (``redis://host:6379/1``), shared by every
    process; unset, each process's own memory (right for the one-process laptop). The cache
    holds nothing that matters beyond a few minutes: the counts of failed logins and tokens,
    and rendered fragments of the live pages (rendered again when missing).
    A Redis that does not answer is given up on within a second (``CACHE_TIMEOUT``) and
    answered as an empty cache (config/cache.py): the pages are rendered afresh and the limits
    fail open (drives/ratelimit.py), so a Redis gone dark slows a page, never stops it."""
    url = env.CACHE_URL
    if not url:
        # Room for the rendered fragments of a big night (the desk grid's rows, a few hundred
        # per game and language, a couple of kilobytes each; the projector's list): Django's
        # default of 300 entries would drop a third of them every few results.
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": LOCMEM_ENTRIES},
        }
    if url.startswith(("redis://", "rediss://", "unix://")):
        timeout = env.CACHE_TIMEOUT
        return {
            "BACKEND": "config.cache.TolerantRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
        }
    raise ImproperlyConfigured(
        f"CACHE_URL={url!r} is not a Redis URL (redis://host:6379/1), or leave it unset"
    )


SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"


def _smtp(
    host: str, port: int | None, user: str, password: str, tls: bool, ssl: bool, timeout: int
) -> dict[str, Any]:
    if tls and ssl:
        raise ImproperlyConfigured(NOT_BOTH_TLS_AND_SSL)
    return {
        "EMAIL_BACKEND": SMTP_BACKEND,
        "EMAIL_HOST": host,
        "EMAIL_PORT": port or (465 if ssl else 587 if tls else 25),
        "EMAIL_HOST_USER": user,
        "EMAIL_HOST_PASSWORD": password,
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
        "EMAIL_TIMEOUT": timeout,
    }


class _UrlOptions(BaseModel):
    """The options of an ``EMAIL_URL`` (``?tls=1&timeout=5``), read as the variables are."""

    model_config = ConfigDict(extra="forbid")

    TLS: Flag = False
    SSL: Flag | None = None
    TIMEOUT: Annotated[int | None, BeforeValidator(_whole)] = None


def _email_from_url(url: str, timeout: int) -> dict[str, Any]:
    """``smtp://user:password@host:587?tls=1``, ``smtps://user:password@host`` (SSL, port
    465), or ``console:`` (mails printed to the log: a trial, not for real users)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "console":
        return {"EMAIL_BACKEND": CONSOLE_BACKEND}
    if scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured(
            f"EMAIL_URL: {scheme or url!r} is not smtp://, smtps:// or console: "
            "(e.g. smtp://user:password@mail.example.org:587?tls=1)"
        )
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("EMAIL_URL: the port is not a number") from None
    if not parts.hostname:
        raise ImproperlyConfigured(
            "EMAIL_URL: no mail server named (e.g. smtp://user:password@mail.example.org:587?tls=1)"
        )
    query = {key.lower(): values[-1] for key, values in parse_qs(parts.query).items()}
    unknown = sorted(set(query) - {"tls", "ssl", "timeout"})
    if unknown:
        raise ImproperlyConfigured(
            f"EMAIL_URL: unknown option {unknown[0]!r} (known: tls, ssl, timeout)"
        )
    try:
        options = _UrlOptions.model_validate({name.upper(): value for name, value in query.items()})
    except ValidationError as error:
        raise ImproperlyConfigured(refusal(error, within="EMAIL_URL: ")) from None
    return _smtp(
        parts.hostname,
        port,
        unquote(parts.username or ""),
        unquote(parts.password or ""),
        options.TLS,
        scheme == "smtps" if options.SSL is None else options.SSL,
        timeout if options.TIMEOUT is None else options.TIMEOUT,
    )


def email_settings(env: Environment) -> dict[str, Any]:
    """The ``EMAIL_*`` settings, ``DEFAULT_FROM_EMAIL`` and ``PASSWORD_RESET_BY_EMAIL``.

    From ``EMAIL_URL`` (see :func:`_email_from_url`), or from Django's own variables
    (``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
    ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``), not both (:class:`Environment` refuses both
    settings, and TLS with SSL). ``EMAIL_TIMEOUT`` (10 s) bounds a mail
    server that does not answer. With neither, no e-mail is sent: ``PASSWORD_RESET_BY_EMAIL``
    is False and the password-reset page says that the club's administrator resets passwords
    (development and the tests turn it on with their own backends)."""
    timeout = env.EMAIL_TIMEOUT
    common = {"DEFAULT_FROM_EMAIL": env.DEFAULT_FROM_EMAIL or "webmaster@localhost"}
    # Django's own defaults, for the keys a backend does not use.
    defaults = _smtp("localhost", 25, "", "", False, False, timeout)
    if env.EMAIL_URL:
        config = _email_from_url(env.EMAIL_URL, timeout)
    elif env.EMAIL_HOST:
        config = _smtp(
            env.EMAIL_HOST,
            env.EMAIL_PORT or None,
            env.EMAIL_HOST_USER,
            env.EMAIL_HOST_PASSWORD,
            env.EMAIL_USE_TLS,
            env.EMAIL_USE_SSL,
            timeout,
        )
    else:
        return {**defaults, **common, "PASSWORD_RESET_BY_EMAIL": False}
    return {**defaults, **config, **common, "PASSWORD_RESET_BY_EMAIL": True}


def celery_settings(env: Environment) -> dict[str, Any]:
    """The ``CELERY_*`` settings: eager in-process without a broker, a real broker with one.

    The time limits and the Redis visibility timeout come from ``CELERY_TASK_SOFT_TIME_LIMIT``
    (300 s), ``CELERY_TASK_TIME_LIMIT`` (360 s) and ``CELERY_VISIBILITY_TIMEOUT`` (3600 s); each
    must be shorter than the next (:class:`Environment` refuses them otherwise)."""
    broker = env.CELERY_BROKER_URL
    soft, hard = env.CELERY_TASK_SOFT_TIME_LIMIT, env.CELERY_TASK_TIME_LIMIT
    visibility = env.CELERY_VISIBILITY_TIMEOUT
    common: dict[str, Any] = {
        # A task is acknowledged once it has run, so a worker killed mid-task leaves it
        # to be run again; tasks are written to be safe to run twice.
        "CELERY_TASK_ACKS_LATE": True,
        "CELERY_TASK_REJECT_ON_WORKER_LOST": True,
        "CELERY_WORKER_PREFETCH_MULTIPLIER": 1,
        "CELERY_TASK_SERIALIZER": "json",
        "CELERY_RESULT_SERIALIZER": "json",
        "CELERY_ACCEPT_CONTENT": ["json"],
        "CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP": True,
        # Sending a task while the broker is down is tried again for about 4.5 s (five
        # times), then fails with kombu's OperationalError: a request never hangs on it.
        "CELERY_TASK_PUBLISH_RETRY": True,
        "CELERY_TASK_PUBLISH_RETRY_POLICY": {
            "max_retries": 5,
            "interval_start": 0.5,
            "interval_step": 0.5,
            "interval_max": 1,
        },
        # A task gets a SoftTimeLimitExceeded at the soft limit (to record its failure) and
        # is killed at the hard one.
        "CELERY_TASK_SOFT_TIME_LIMIT": soft,
        "CELERY_TASK_TIME_LIMIT": hard,
        # Redis (kombu's transport) keeps a delivered task in its "unacked" hash until the
        # task is acknowledged; a worker's sweep puts one back on the queue once it is older
        # than the visibility timeout (a worker killed with -9 never acknowledges it). The
        # timeout must be longer than any task may run, or a task still running is handed to
        # a second worker. The sweep runs at start and every unacked_restore_interval
        # seconds (throttle 1: every time), so a lost task runs again within about the
        # visibility timeout plus that interval. The socket timeouts bound a broker that
        # accepts connections but does not answer.
        "CELERY_BROKER_TRANSPORT_OPTIONS": {
            "visibility_timeout": visibility,
            "unacked_restore_interval": max(1, min(10, visibility // 8)),
            "unacked_restore_throttle": 1,
            "socket_connect_timeout": 5,
            "socket_timeout": 10,
        },
    }
    if not broker:
        return {
            **common,
            "CELERY_BROKER_URL": "memory://",
            "CELERY_RESULT_BACKEND": None,
            "CELERY_TASK_ALWAYS_EAGER": True,
            "CELERY_TASK_EAGER_PROPAGATES": True,
        }
    return {
        **common,
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": env.CELERY_RESULT_BACKEND or broker,
        "CELERY_TASK_ALWAYS_EAGER": False,
        "CELERY_TASK_EAGER_PROPAGATES": False,
    }


def hall_private_folder(data_dir: Path) -> None:
    """The hall's data folder, made readable by its owner only (0700); one made readable by
    everyone (by an older version) is put right."""
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix":
        data_dir.chmod(0o700)


def hall_private_database(database: Path) -> None:
    """The SQLite file made (empty) readable by its owner only (0600) before SQLite opens it:
    SQLite gives its -wal and -shm files the database file's mode. Existing ones are put right."""
    descriptor = os.open(database, os.O_WRONLY | os.O_CREAT, 0o600)
    os.close(descriptor)
    if os.name == "posix":
        for path in (database, *(Path(f"{database}{end}") for end in ("-wal", "-shm"))):
            if path.exists():
                path.chmod(0o600)


def hall_database_settings(env: Environment, data_dir: Path) -> dict[str, Any]:
    """The hall's ``DATABASES["default"]``: ``data_dir/db.sqlite3`` unless ``DATABASE_URL``
    says otherwise; a SQLite one owner-only (its folder too) and at synchronous=FULL."""
    hall_private_folder(data_dir)
    config = database_settings(env, data_dir)
    if config["ENGINE"] == SQLITE_ENGINE:
        config["OPTIONS"] = {**config["OPTIONS"], "init_command": HALL_SQLITE_INIT_COMMAND}
        if str(config["NAME"]) not in ("", ":memory:"):
            hall_private_database(Path(config["NAME"]))
    return config


def hall_secret_key(data_dir: Path) -> str:
    """The hall's secret key: read from ``data_dir/secret_key``, made there on the first start
    (owner-only permissions). Kept beside the database: sessions and signed links stay valid
    across restarts, and a copy of the folder is a whole backup."""
    path = data_dir / "secret_key"
    if path.is_file():
        key = path.read_text(encoding="utf-8").strip()
        if len(key) >= 50:
            return key
    hall_private_folder(data_dir)
    key = get_random_secret_key()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(key + "\n")
    return key
