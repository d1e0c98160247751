"""Keep the tokens of the table and couple cards out of the logs.

A table's or a couple's page is ``/t/<token>/`` or ``/c/<token>/``: whoever reads the token
can enter that table's results until the drive closes, so it is a credential, and a log line
must not carry it. :func:`mask_tokens` replaces it with ``…`` wherever a URL appears in a
text (``GET /t/…/?partial=1 HTTP/1.1``, a Referer ``https://host/t/…/``), along with the value
of any query parameter whose name contains ``token`` and the credential of an
``Authorization: Bearer`` header.

Two places use it: gunicorn's access log (the logger class of ``config/gunicorn.py``) and
Django's own log (:class:`MaskTokens`, a filter on the handlers of ``LOGGING`` in
``config/settings/base.py``: ``django.request`` writes "Not Found: /t/<token>/" for a token
that is nobody's, and runserver's ``django.server`` writes each request line).
"""

from __future__ import annotations

import logging
import re

MASK = "…"

_SLASH = r"(?:/|%2[fF])"
_SEGMENT = r"(?:[^/?#&\s\"'%]|%(?!2[fF]))+"
# What comes before the token in the paths that carry one (tests/config/test_redact.py checks
# that every URL pattern with a ``token`` is covered): a table's and a couple's page
# (scoring/pages/urls_live.py), a registration's cancel link (drives/registration_urls.py),
# and the link of a password-reset e-mail, /accounts/reset/<uidb64>/<token>/ (Django's own;
# the page it redirects to, …/set-password/, carries none).
TOKEN_ROUTES = ("t", "c", rf"register{_SLASH}cancel", rf"accounts{_SLASH}reset{_SLASH}{_SEGMENT}")
# Where a path starts: the start of the text, after a space, a quote, a bracket or "=" (a
# query parameter holding a path), or after a URL's scheme and host (plain or %-encoded).
_PATH_START = r"(?:^|(?<=[\s\"'(=,])|(?<=://)[^/\s\"'?#]*|(?<=%3[aA]%2[fF]%2[fF])[^%/\s\"'?#&]*)"
_PATH_TOKEN = re.compile(
    rf"(?P<head>{_PATH_START}{_SLASH}(?:{'|'.join(TOKEN_ROUTES)}){_SLASH})"
    rf"(?!set-password(?:{_SLASH}|[?#\s\"']|$))(?P<token>{_SEGMENT})"
)
# token=…, table_token=…, csrfmiddlewaretoken=… in a query string (with or without its "?").
_QUERY_TOKEN = re.compile(
    r"(?P<head>(?:^|(?<=[?&;\s\"']))[^=&;?#\s\"']*token[^=&;?#\s\"']*=)(?P<token>[^&;#\s\"']+)",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?P<head>\bBearer\s+)(?P<token>[^\s\"',]+)", re.IGNORECASE)


def mask_tokens(text: str) -> str:
    """``text`` with every token of a table or couple URL, token query parameter and bearer
    credential replaced by ``…``; anything else is left as it is."""
    for pattern in (_PATH_TOKEN, _QUERY_TOKEN, _BEARER):
        text = pattern.sub(rf"\g<head>{MASK}", text)
    return text


class MaskTokens(logging.Filter):
    """A logging filter that masks the tokens in each record's message (see mask_tokens)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
