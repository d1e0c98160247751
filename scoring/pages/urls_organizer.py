"""The organizer's dashboard of a night and its actions (scoring/pages/organizer.py); part
of the "night" URL namespace (scoring/pages/urls.py)."""

from django.urls import path

from scoring.pages import organizer, printing, prizes

D = "drives/<slug:slug>"

urlpatterns = [
    path(f"{D}/", organizer.dashboard, name="dashboard"),
    path(f"{D}/start", organizer.start, name="dashboard_start"),
    path(f"{D}/advance", organizer.advance, name="dashboard_advance"),
    path(f"{D}/resolve", organizer.resolve, name="dashboard_resolve"),
    path(f"{D}/holes", organizer.holes, name="dashboard_holes"),
    path(f"{D}/publish", organizer.publish, name="dashboard_publish"),
    path(f"{D}/close", organizer.close, name="dashboard_close"),
]

# The prize pages (scoring/pages/prizes.py).
urlpatterns += [
    path(f"{D}/prizes/", prizes.prizes, name="prizes"),
    path(f"{D}/prizes/setup", prizes.setup, name="prizes_setup"),
    path(f"{D}/prizes/settle", prizes.settle, name="prizes_settle"),
    path(f"{D}/prizes/cookie-jar", prizes.jar, name="prizes_cookie_jar"),
    path(f"{D}/prizes/buy-in", prizes.buy_in, name="prizes_buy_in"),
    path(f"{D}/prizes/ties/<int:tie>/", prizes.tie_page, name="prizes_tie"),
    path(f"{D}/prizes/ties/<int:tie>/choice", prizes.tie_choice, name="prizes_tie_choice"),
    path(f"{D}/prizes/ties/<int:tie>/decide", prizes.tie_decide_view, name="prizes_tie_decide"),
    path(f"{D}/prizes/ties/<int:tie>/cut", prizes.tie_cut, name="prizes_tie_cut"),
    path(f"{D}/prizes/ties/<int:tie>/draw", prizes.tie_draw, name="prizes_tie_draw"),
    path(f"{D}/prizes/ties/<int:tie>/cut-rule", prizes.tie_cut_rule, name="prizes_tie_cut_rule"),
    path(f"{D}/prizes/ties/<int:tie>/playoff", prizes.tie_playoff, name="prizes_tie_playoff"),
]

# The print page and its documents (scoring/pages/printing.py).

urlpatterns += [
    path(f"{D}/print/", printing.print_page, name="print"),
    path(f"{D}/print/request", printing.print_request, name="print_request"),
    path(f"{D}/print/<int:pk>/", printing.print_document, name="print_document"),
    path(f"{D}/print/<int:pk>/status", printing.print_status, name="print_status"),
    path(f"{D}/print/<int:pk>/file", printing.print_download, name="print_download"),
]
