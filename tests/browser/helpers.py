"""Helpers of the browser tests: log in, take a screenshot, cut the network, watch for
uncaught JavaScript errors and for what the Content-Security-Policy blocked.

Plain functions over Playwright's sync API; the fixtures that build the browser and its pages
are in ``tests/browser/conftest.py``. Every context those fixtures make has the live server as
its ``base_url``, so ``page.goto("/drives/")`` works with a path alone.
"""

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Route, WebError

CHROMIUM = Path("/usr/bin/chromium")
# Flags for a quiet, headless Chromium in a container: no sandbox (we run as root), no GPU,
# and none of the browser's own calls home (there is no network but the loopback here).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# A cheap Android phone, as players bring to the hall.
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": (
        "Mozilla/5.0 (Linux; Android 13; SM-A145F) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36"
    ),
}
# What every context shares: English, the hall's time zone, no animations to wait for.
COMMON = {"locale": "en-CA", "timezone_id": "America/Halifax", "reduced_motion": "reduce"}
# Playwright's defaults are 30 s; a page of this app that takes 10 s is a failure anyway.
TIMEOUT_MS = 10_000

SCREENSHOTS_DIR = Path(settings.BASE_DIR) / "docs" / "screenshots"
LOGIN_PATH = "/accounts/login/"


def login(page: Page, username: str, password: str, next_path: str | None = None) -> None:
    """Log in through the login form, as a person would, and wait for the page after it.

    Lands on ``next_path`` if given, else on the home page. Raises AssertionError with the
    form's message if the login is refused.
    """
    query = f"?{urlencode({'next': next_path})}" if next_path else ""
    page.goto(LOGIN_PATH + query)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.locator(f"main form[action='{LOGIN_PATH}'] [type=submit]").click()
    if page.url.split("?")[0].endswith(LOGIN_PATH):
        errors = page.locator("main .error, main .errorlist").all_inner_texts()
        raise AssertionError(f"login as {username!r} was refused: {errors}")


def force_login(context: BrowserContext, user: AbstractBaseUser, base_url: str) -> None:
    """Log ``user`` in for every page of ``context`` without the form (faster, for flows).

    Makes a session with Django's test client and gives its cookie to the browser.
    """
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base_url}]
    )


def screenshot(page: Page, name: str, *, full_page: bool = False) -> Path | None:
    """Save ``docs/screenshots/<name>.png`` when SCREENSHOTS=1, else do nothing.

    So a normal run (and CI) never rewrites the committed pictures; refresh them with
    ``SCREENSHOTS=1 .venv/bin/pytest tests/browser``. Returns the path written, or None.
    """
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise ValueError(f"screenshot name {name!r}: use lower-case letters, digits, - and _")
    if os.environ.get("SCREENSHOTS", "").strip() != "1":
        return None
    path = SCREENSHOTS_DIR / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")
    return path


def _abort(route: Route) -> None:
    route.abort("internetdisconnected")


@contextmanager
def network_down(context: BrowserContext, url: str = "**/*") -> Iterator[None]:
    """Within the block, the pages of ``context`` are offline and their requests fail.

    ``navigator.onLine`` turns false (the ``offline`` event fires) and every request matching
    ``url`` (a glob; all by default) is aborted as a lost connection; after the block the
    network is back (the ``online`` event fires). Only this context is cut: other contexts,
    the test's own code and the live server go on as before.
    """
    context.route(url, _abort)
    context.set_offline(True)
    try:
        yield
    finally:
        context.set_offline(False)
        context.unroute(url, _abort)


_JS_ERRORS: dict[int, list[str]] = {}


def watch_js_errors(context: BrowserContext) -> list[str]:
    """Collect the uncaught JavaScript errors of every page of ``context``.

    The fixtures call it on each context they make and fail the test that had any.
    """
    errors = _JS_ERRORS.setdefault(id(context), [])
    context.on("weberror", lambda web_error: errors.append(_describe(web_error)))
    return errors


def _describe(web_error: WebError) -> str:
    where = web_error.page.url if web_error.page else "?"
    return f"{where}: {web_error.error}"


def js_errors(page: Page) -> list[str]:
    """The uncaught JavaScript errors of the page's context so far.

    A test that expects some (say, an unhandled rejection it provokes) checks and clears it.
    """
    return _JS_ERRORS.setdefault(id(page.context), [])


def forget_js_errors(context: BrowserContext) -> list[str]:
    return _JS_ERRORS.pop(id(context), [])


_CSP_VIOLATIONS: dict[int, list[str]] = {}
# What Chromium writes to the console when the page's Content-Security-Policy blocks something
# ("Refused to execute inline script because it violates the following Content Security
# Policy directive: …", "Refused to apply inline style …", "Refused to load the image …").
_CSP_CONSOLE = re.compile(r"Refused to .*Content Security Policy", re.DOTALL)
# The page's own report of each violation (the securitypolicyviolation event), in case the
# browser's wording changes; the init script is the browser's own, not subject to the policy.
_CSP_EVENT_PREFIX = "csp-violation:"
_CSP_EVENT_SCRIPT = (
    "document.addEventListener('securitypolicyviolation', (event) => console.error("
    f"'{_CSP_EVENT_PREFIX} ' + event.effectiveDirective + ' blocked ' + (event.blockedURI || "
    "'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber));"
)


def watch_csp_violations(context: BrowserContext) -> list[str]:
    """Collect what the Content-Security-Policy blocked on every page of ``context``.

    The fixtures call it on each context they make and fail the test that had any: a page of
    ours that needs an inline script or style, or a source the policy does not allow, is
    broken for its users even when nothing else shows it.
    """
    violations = _CSP_VIOLATIONS.setdefault(id(context), [])

    def on_console(message: ConsoleMessage) -> None:
        text = message.text
        if _CSP_CONSOLE.search(text) or text.startswith(_CSP_EVENT_PREFIX):
            where = message.page.url if message.page else "?"
            violations.append(f"{where}: {text}")

    context.add_init_script(_CSP_EVENT_SCRIPT)
    context.on("console", on_console)
    return violations


def csp_violations(page: Page) -> list[str]:
    """The Content-Security-Policy violations of the page's context so far (a test that
    provokes one checks and clears it)."""
    return _CSP_VIOLATIONS.setdefault(id(page.context), [])


def forget_csp_violations(context: BrowserContext) -> list[str]:
    return _CSP_VIOLATIONS.pop(id(context), [])


# --- accessibility: axe-core, larger text, colour contrast --------------------------------------

# The rules of WCAG 2.0, 2.1 and 2.2, levels A and AA (axe-core's tags).
WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_violations(page: Page, *, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's WCAG 2.2 AA violations of ``impacts`` on the page as it is now, one line each
    (rule, impact, how many elements, the first element's selector).

    axe-core comes from the axe-playwright-python package (requirements-dev.txt), which bundles
    its axe.min.js; it is evaluated by Playwright, so the page's Content-Security-Policy does
    not apply to it.
    """
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page,
        options={"runOnly": {"type": "tag", "values": WCAG_AA_TAGS}, "resultTypes": ["violations"]},
    )
    return [
        f"{v['id']} ({v['impact']}) ×{len(v['nodes'])}: {v['nodes'][0]['target']} {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in impacts
    ]


def text_size(page: Page, percent: int) -> None:
    """The browser's own text size setting at ``percent`` of its default (16 px), as a
    reader with "large text" on sets it: rem-based sizes grow, the viewport stays. Reload or
    navigate after it to lay the page out again."""
    session = page.context.new_cdp_session(page)
    standard = round(16 * percent / 100)
    session.send(
        "Page.setFontSizes",
        {"fontSizes": {"standard": standard, "fixed": round(13 * percent / 100)}},
    )


# A page's colours, measured as WCAG does: relative luminance and contrast ratio, over the
# colour an element is really drawn on (the first ancestor with an opaque background).
CONTRAST_JS = """
window.__contrast = (() => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = (c) => {
    const [r, g, b] = parse(c).slice(0, 3).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const opaque = (c) => {
    const p = parse(c);
    return p.length === 3 || (p.length === 4 && p[3] > 0.9);
  };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      if (opaque(bg)) return bg;
    }
    return "rgb(255, 255, 255)";
  };
  return { ratio, behind, parse };
})();
"""
