"""The licence's report of a night's 50/50 and raffles (a provincial lottery licence asks for
it): the tickets sold by number range, the gross, the prizes paid with the winning tickets,
the expenses and the net, as the ledger says; its page in the drive's language and its PDF;
no report until the licence number is set."""

from __future__ import annotations

import copy
import io
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from api.site import api as ninja_api
from drives.models import AuditEntry, Drive
from drives.services import drive_update
from money.models import MoneySetup
from money.services import setup_update
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from tests.api.helpers import DESK, Api, ClubUsers

pytestmark = pytest.mark.django_db

LICENCE = "NS-AGLC 2026-0417"


def url(drive: Drive, tail: str) -> str:
    return f"drives/{drive.slug}/{tail}"


def ok(answer: Any, status: int = 201) -> Any:
    assert answer.status_code == status, answer.content
    return answer.json()


def a_night(api: Api, drive: Drive, token: str) -> dict[str, Any]:
    """A 50/50 and two raffles (a quilt at 5.00 a ticket, a ham at the drive's prices), a
    refund, a redraw, a raffle drawn but not yet handed over, expenses (one reversed) and
    money that is not the lotteries' (the door's fees, a donation)."""
    post = api.post
    ok(api.patch(url(drive, "accounts/setup"), {"licence_number": LICENCE}, token=token), 200)
    ok(post(url(drive, "fifty-fifty/tickets"), {"count": 10}, token=token))  # 1–10, 10.00
    ok(
        post(
            url(drive, "fifty-fifty/tickets"),
            {"count": 10, "first": 21, "way": "card"},
            token=token,
        )
    )
    ok(post(url(drive, "fifty-fifty/tickets"), {"count": 1}, token=token))  # 31, 2.00
    refunded = ok(post(url(drive, "fifty-fifty/tickets"), {"count": 2}, token=token))  # 32–33
    ok(post(url(drive, f"accounts/lines/{refunded['line']}/reverse"), {}, token=token))
    quilt = ok(post(url(drive, "raffles"), {"name": "Quilt", "ticket_price": "5.00"}, token=token))
    ham = ok(post(url(drive, "raffles"), {"name": "Ham"}, token=token))
    ok(post(url(drive, f"raffles/{quilt['id']}/tickets"), {"count": 3}, token=token))  # 15.00
    ok(post(url(drive, f"raffles/{ham['id']}/tickets"), {"count": 10}, token=token))  # 10.00
    first = ok(post(url(drive, "fifty-fifty/draw"), token=token))
    ok(post(url(drive, "fifty-fifty/unclaimed"), token=token), 200)
    second = ok(post(url(drive, "fifty-fifty/draw"), token=token))
    paid = ok(post(url(drive, "fifty-fifty/claim"), {}, token=token), 200)
    quilt_draw = ok(post(url(drive, f"raffles/{quilt['id']}/draw"), token=token))
    ok(post(url(drive, f"raffles/{quilt['id']}/claim"), token=token), 200)
    ham_draw = ok(post(url(drive, f"raffles/{ham['id']}/draw"), token=token))
    line = url(drive, "accounts/lines")
    ok(post(line, {"kind": "expense", "amount": "25.00", "note": "Hall rental"}, token=token))
    wrong = ok(post(line, {"kind": "expense", "amount": "5.00", "note": "typo"}, token=token))
    ok(post(url(drive, f"accounts/lines/{wrong['id']}/reverse"), {}, token=token))
    ok(post(line, {"kind": "donation", "amount": "50.00"}, token=token))
    ok(api.patch(url(drive, "couples/1"), {"paid": True}, token=token), 200)
    return {
        "quilt": quilt["id"],
        "ham": ham["id"],
        "first": first,
        "second": second,
        "paid": paid,
        "quilt_draw": quilt_draw,
        "ham_draw": ham_draw,
    }


def test_the_report_of_a_night_agrees_with_the_ledger_line_by_line(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    tok = ours.org_token
    night = a_night(api, drive, tok)
    report = ok(api.get(url(drive, "accounts/licence-report"), token=tok), 200)
    ledger = ok(api.get(url(drive, "accounts"), token=tok), 200)
    assert report["licence_number"] == LICENCE
    fifty, quilt, ham = report["tickets"]
    # The 50/50: the numbers sold as ranges (the refunded 32–33 given back), at 2.00 a
    # ticket or 10.00 a strip of 10: 10.00 + 10.00 + 2.00.
    assert fifty["draw"] == "fifty_fifty"
    assert fifty["ranges"] == [{"first": 1, "last": 10}, {"first": 21, "last": 31}]
    assert fifty["count"] == 21
    assert (fifty["price"], fifty["strip_size"], fifty["strip_price"]) == ("2.00", 10, "10.00")
    assert fifty["gross"] == "22.00" == ledger["totals_by_kind"]["fifty_fifty_tickets"]
    assert (quilt["name"], quilt["ranges"], quilt["count"], quilt["price"], quilt["gross"]) == (
        "Quilt",
        [{"first": 1, "last": 3}],
        3,
        "5.00",
        "15.00",
    )
    assert quilt["strip_size"] is None
    assert (ham["name"], ham["ranges"], ham["count"], ham["gross"]) == (
        "Ham",
        [{"first": 1, "last": 10}],
        10,
        "10.00",
    )
    assert Decimal(quilt["gross"]) + Decimal(ham["gross"]) == Decimal(
        ledger["totals_by_kind"]["raffle_tickets"]
    )
    assert report["gross"] == "47.00"
    # The prizes paid: the 50/50's second draw (the first went unclaimed), its share the
    # ledger's payout; the quilt handed over; the ham drawn but not yet claimed is no prize.
    assert report["prizes"] == [
        {
            "draw": "fifty_fifty",
            "pool": fifty["pool"],
            "name": "50/50",
            "round": 2,
            "ticket": night["second"]["ticket"],
            "amount": "11.00",
            "item": None,
            "at": report["prizes"][0]["at"],
        },
        {
            "draw": "raffle",
            "pool": night["quilt"],
            "name": "Quilt",
            "round": 1,
            "ticket": night["quilt_draw"]["ticket"],
            "amount": None,
            "item": "Quilt",
            "at": report["prizes"][1]["at"],
        },
    ]
    assert night["paid"]["ticket"] == night["second"]["ticket"] != night["first"]["ticket"]
    assert report["prizes_paid"] == "11.00" == ledger["totals_by_kind"]["fifty_fifty_paid"]
    # The expenses standing (the reversed one and its reversal cancel out, as in the ledger).
    assert [(e["note"], e["amount"]) for e in report["expenses"]] == [("Hall rental", "25.00")]
    assert report["expenses_total"] == "25.00" == ledger["totals_by_kind"]["expense"]
    # The net: 47.00 − 11.00 − 25.00; the door's fees and the donation are not the lotteries'.
    assert report["net"] == "11.00"
    # Every draw's record, with its seed, its time and who drew.
    records = [(d["name"], d["round"], d["ticket"], d["seed"], d["state"]) for d in report["draws"]]
    assert records == [
        ("50/50", 1, night["first"]["ticket"], night["first"]["seed"], "unclaimed"),
        ("50/50", 2, night["second"]["ticket"], night["second"]["seed"], "claimed"),
        ("Quilt", 1, night["quilt_draw"]["ticket"], night["quilt_draw"]["seed"], "claimed"),
        ("Ham", 1, night["ham_draw"]["ticket"], night["ham_draw"]["seed"], "drawn"),
    ]
    assert {d["drawn_by"] for d in report["draws"]} == {"ours-organizer"}
    assert [d["among"] for d in report["draws"]] == [21, 20, 3, 10]
    assert all(d["at"] for d in report["draws"])


def test_no_report_without_a_licence_number(api: Api, ours: ClubUsers, drive: Drive) -> None:
    tok = ours.org_token
    ok(api.post(url(drive, "fifty-fifty/tickets"), {"count": 10}, token=tok))
    audited = AuditEntry.objects.count()
    for query in ("", "?format=pdf"):
        answer = api.get(url(drive, "accounts/licence-report") + query, token=tok)
        assert answer.status_code == 422, answer.content
        assert answer.json()["code"] == "no_licence_number"
        assert "licence" in answer.json()["message"]
    assert AuditEntry.objects.count() == audited
    assert not MoneySetup.objects.filter(drive=drive).exclude(licence_number="").exists()
    # Set, then cleared: no report again.
    ok(api.patch(url(drive, "accounts/setup"), {"licence_number": LICENCE}, token=tok), 200)
    ok(api.get(url(drive, "accounts/licence-report"), token=tok), 200)
    cleared = ok(api.patch(url(drive, "accounts/setup"), {"licence_number": ""}, token=tok), 200)
    assert cleared["licence_number"] == ""
    assert api.get(url(drive, "accounts/licence-report"), token=tok).status_code == 422


def test_a_licence_number_too_long_is_refused_and_not_stored(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    answer = api.patch(
        url(drive, "accounts/setup"), {"licence_number": "x" * 41}, token=ours.org_token
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == "bad_licence_number"
    assert "40" in answer.json()["message"]
    assert not MoneySetup.objects.filter(drive=drive).exists()
    # A scorer may read the report (as the accounts) but not set the number.
    answer = api.patch(
        url(drive, "accounts/setup"), {"licence_number": "A1"}, token=ours.scorer_token
    )
    assert answer.status_code == 403


def pdf_text(content: bytes) -> str:
    pages = PdfReader(io.BytesIO(content)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def test_the_pdf_says_the_licence_the_gross_and_the_net(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    night = a_night(api, drive, ours.org_token)
    answer = api.get(url(drive, "accounts/licence-report?format=pdf"), token=ours.scorer_token)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/pdf"
    assert f"{drive.slug}-licence-report.pdf" in answer["Content-Disposition"]
    assert len(PdfReader(io.BytesIO(answer.content)).pages) == 1
    text = pdf_text(answer.content)
    assert LICENCE in text
    assert "Gross 47.00 CAD" in text
    assert "Net 11.00 CAD" in text
    assert "1–10, 21–31" in text or "1-10, 21-31" in text
    assert f"ticket {night['second']['ticket']}" in text
    assert f"seed {night['second']['seed']}" in text
    assert "Hall rental 25.00 CAD" in text
    # A format nobody makes: refused, naming the query's field.
    bad = api.get(url(drive, "accounts/licence-report?format=xlsx"), token=ours.scorer_token)
    assert bad.status_code == 422 and bad.json()["field"] == "format"


def test_the_page_from_the_money_page_in_the_drives_language(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    night = a_night(api, drive, ours.org_token)
    desk = Client()
    desk.force_login(ours.organizer)
    money = desk.get(reverse("money:page", kwargs={"slug": drive.slug})).content.decode()
    page_url = reverse("money:licence", kwargs={"slug": drive.slug})
    assert page_url in money
    page = desk.get(page_url).content.decode()
    assert "<h2>The licence's report</h2>" in page and LICENCE in page
    assert "1–10, 21–31" in page and "47.00 CAD" in page and "11.00 CAD" in page
    assert str(night["second"]["seed"]) in page
    drive_update(drive=drive, actor=DESK, language="fr")
    page = desk.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rapport de licence" in page and "Net pour l'œuvre de bienfaisance" in page
    assert "Billets vendus" in page and "Tickets sold" not in page
    text = pdf_text(
        desk.get(
            reverse("api:money-licence-report", kwargs={"slug": drive.slug}), {"format": "pdf"}
        ).content
    )
    assert "Rapport de licence" in text and "Net 11.00 CAD" in text


def test_the_page_without_a_licence_number_says_where_to_set_it(
    ours: ClubUsers, drive: Drive
) -> None:
    desk = Client()
    desk.force_login(ours.organizer)
    answer = desk.get(reverse("money:licence", kwargs={"slug": drive.slug}))
    assert answer.status_code == 422
    assert "licence" in answer.content.decode()
    # The money page's form sets it (the same rule as the API: at most 40 characters).
    money = reverse("money:page", kwargs={"slug": drive.slug})
    desk.post(money, {"action": "setup", "licence_number": "y" * 41})
    assert not MoneySetup.objects.filter(drive=drive).exclude(licence_number="").exists()
    desk.post(money, {"action": "setup", "licence_number": f" {LICENCE} "})
    assert MoneySetup.objects.get(drive=drive).licence_number == LICENCE
    assert desk.get(reverse("money:licence", kwargs={"slug": drive.slug})).status_code == 200


def test_the_openapi_describes_the_report() -> None:
    spec = ninja_api.get_openapi_schema()
    operation = spec["paths"]["/drives/{slug}/accounts/licence-report"]["get"]
    assert {"200", "404", "422"} <= set(operation["responses"])
    assert "application/pdf" in operation["responses"]["200"]["content"]
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["format"]
    setup = spec["paths"]["/drives/{slug}/accounts/setup"]["patch"]
    body = setup["requestBody"]["content"]["application/json"]["schema"]
    schema = spec["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]
    assert schema["properties"]["licence_number"]["maxLength"] == 40


def test_the_export_carries_the_licence_number_and_older_exports_restore_without(
    ours: ClubUsers, drive: Drive
) -> None:
    setup_update(drive=drive, actor=DESK, licence_number=LICENCE)
    record = drive_export(drive)
    assert record["money"]["setup"]["licence_number"] == LICENCE
    older = copy.deepcopy(record)
    del older["money"]["setup"]["licence_number"]
    drive_delete(drive=drive)
    restored = drive_restore(data=record).drive
    assert MoneySetup.objects.get(drive=restored).licence_number == LICENCE
    drive_delete(drive=restored)
    restored = drive_restore(data=older).drive
    assert MoneySetup.objects.get(drive=restored).licence_number == ""
