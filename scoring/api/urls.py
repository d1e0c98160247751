"""The API's URLs, included under ``/api/v1/`` by ``config.urls``. Every pattern here is
described in ``scoring.api.openapi`` (a test checks it); anything else under ``/api/v1/`` is a
JSON 404."""

from django.urls import path, re_path, register_converter

from scoring.api import views as v


class NumberConverter:
    """A game, table or couple number: 1 to 9 digits (a longer one is no number of ours, and
    would overflow the database's integers)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(NumberConverter, "num")

app_name = "api"

D = "drives/<slug:slug>"

urlpatterns = [
    path("me", v.endpoint(GET=v.me), name="me"),
    path("openapi.json", v.endpoint(public=True, GET=v.openapi), name="openapi"),
    path("drives", v.endpoint(GET=v.drives_list, POST=v.drives_create), name="drives"),
    path(D, v.endpoint(GET=v.drive_detail, PATCH=v.drive_patch), name="drive"),
    path(f"{D}/start", v.endpoint(POST=v.drive_start_view), name="start"),
    path(f"{D}/close", v.endpoint(POST=v.drive_close_view), name="close"),
    path(f"{D}/couples", v.endpoint(GET=v.couples_list, POST=v.couples_add), name="couples"),
    path(f"{D}/couples/import", v.endpoint(POST=v.couples_import), name="couples-import"),
    path(
        f"{D}/couples/<num:number>",
        v.endpoint(PATCH=v.couple_patch, DELETE=v.couple_delete_view),
        name="couple",
    ),
    path(f"{D}/games/current", v.endpoint(GET=v.game_current), name="game-current"),
    path(f"{D}/games/<num:n>", v.endpoint(GET=v.game_detail), name="game"),
    path(f"{D}/games/<num:n>/advance", v.endpoint(POST=v.game_advance_view), name="advance"),
    path(
        f"{D}/games/<num:n>/tables/<num:t>/result",
        v.endpoint(PUT=v.result_put),
        name="result",
    ),
    path(
        f"{D}/games/<num:n>/tables/<num:t>/confirm",
        v.endpoint(POST=v.result_confirm_view),
        name="confirm",
    ),
    path(
        f"{D}/games/<num:n>/tables/<num:t>/resolve",
        v.endpoint(POST=v.result_resolve_view),
        name="resolve",
    ),
    path(f"{D}/standings", v.endpoint(GET=v.standings), name="standings"),
    path(f"{D}/grid", v.endpoint(GET=v.grid), name="grid"),
    path(f"{D}/tables", v.endpoint(GET=v.tables), name="tables"),
    path(f"{D}/export", v.endpoint(GET=v.export), name="export"),
    path(f"{D}/holes", v.endpoint(POST=v.holes), name="holes"),
    path(f"{D}/reconciliation", v.endpoint(GET=v.reconciliation_view), name="reconciliation"),
    path(f"{D}/prizes", v.endpoint(GET=v.prizes_view), name="prizes"),
    path(
        f"{D}/prizes/setup",
        v.endpoint(GET=v.prize_setup_get, PATCH=v.prize_setup_patch),
        name="prize-setup",
    ),
    path(f"{D}/prizes/ties", v.endpoint(GET=v.ties_get, POST=v.ties_open), name="ties"),
    path(
        f"{D}/prizes/ties/<num:tie>/choices",
        v.endpoint(POST=v.tie_choice_view),
        name="tie-choices",
    ),
    path(
        f"{D}/prizes/ties/<num:tie>/decide", v.endpoint(POST=v.tie_decide_view), name="tie-decide"
    ),
    path(f"{D}/prizes/ties/<num:tie>/cut", v.endpoint(POST=v.tie_cut_view), name="tie-cut"),
    path(
        f"{D}/prizes/ties/<num:tie>/playoff",
        v.endpoint(POST=v.tie_playoff_view),
        name="tie-playoff",
    ),
    path(f"{D}/prizes/cookie-jar", v.endpoint(GET=v.cookie_jar_get), name="cookie-jar"),
    path(
        f"{D}/prizes/cookie-jar/draw",
        v.endpoint(POST=v.cookie_jar_draw_view),
        name="cookie-jar-draw",
    ),
    path(f"{D}/documents", v.endpoint(POST=v.documents_request), name="documents"),
    path(f"{D}/documents/<num:pk>", v.endpoint(GET=v.document_detail), name="document"),
    path(f"{D}/documents/<num:pk>/file", v.endpoint(GET=v.document_file), name="document-file"),
    # Any path at all, line breaks included (an encoded newline in a slug is still a 404 in JSON).
    re_path(r"^(?P<path>[\s\S]*)$", v.not_found, name="not-found"),
]
