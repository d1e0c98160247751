"""The licence's report over a period (a season's dates, a licence's year): each night that
sold 50/50 or raffle tickets as its own report says it, the totals, the nights whose report
cannot be made (no licence number), the page, the API and the PDF."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from pypdf import PdfReader

from drives.models import Drive
from drives.services import drive_update
from money.selectors import licence_report
from tests.api.helpers import DESK, Api, ClubUsers, make_drive
from tests.money.test_licence_report import LICENCE, a_night, ok, url

pytestmark = pytest.mark.django_db


def three_nights(api: Api, ours: ClubUsers) -> list[Drive]:
    """Two nights with their lotteries under the licence and one whose 50/50 was sold before
    the licence number was set; and a night outside the period."""
    nights = []
    for day in (6, 13, 20, 27):
        drive = make_drive(ours.club, 6, entry_fee=Decimal("20.00"), entry_fee_per="couple")
        drive_update(drive=drive, actor=DESK, date=date(2026, 11 if day < 27 else 12, day))
        nights.append(Drive.objects.get(pk=drive.pk))
    a_night(api, nights[0], ours.org_token)
    a_night(api, nights[1], ours.org_token)
    ok(api.post(url(nights[2], "fifty-fifty/tickets"), {"count": 5}, token=ours.org_token))
    a_night(api, nights[3], ours.org_token)
    return nights


def test_the_period_adds_up_its_nights_reports(api: Api, ours: ClubUsers) -> None:
    nights = three_nights(api, ours)
    answer = api.get(
        f"clubs/{ours.club.slug}/money/licence-report?from=2026-11-01&to=2026-11-30",
        token=ours.org_token,
    )
    body = ok(answer, 200)
    reports = [licence_report(d) for d in nights[:2]]
    assert [n["slug"] for n in body["nights"]] == [d.slug for d in nights[:2]]
    for night, report in zip(body["nights"], reports, strict=True):
        assert night["licence_number"] == LICENCE
        assert Decimal(night["net"]) == report["net"]
        assert night["tickets"] == sum(t["count"] for t in report["tickets"])
    assert [n["slug"] for n in body["without_licence_number"]] == [nights[2].slug]
    (total,) = body["totals"]
    assert total["nights"] == 2
    assert Decimal(total["gross"]) == sum(r["gross"] for r in reports)
    assert Decimal(total["net"]) == sum(r["net"] for r in reports)
    assert Decimal(total["net"]) == (
        Decimal(total["gross"]) - Decimal(total["prizes_paid"]) - Decimal(total["expenses_total"])
    )


def test_the_pdf_page_and_refusals(api: Api, ours: ClubUsers) -> None:
    nights = three_nights(api, ours)
    base = f"clubs/{ours.club.slug}/money/licence-report"
    pdf = api.get(f"{base}?from=2026-11-01&to=2026-11-30&format=pdf", token=ours.org_token)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert LICENCE in text and "no licence number set" in text
    backwards = api.get(f"{base}?from=2026-12-01&to=2026-11-01", token=ours.org_token)
    assert backwards.status_code == 422 and backwards.json()["code"] == "bad_period"
    assert (
        api.get(f"{base}?from=2026-11-01&to=2026-11-30", token=ours.scorer_token).status_code == 403
    )

    client = Client()
    client.force_login(ours.organizer)
    page = client.get(f"/clubs/{ours.club.slug}/licence-report?from=2026-11-01&to=2026-11-30")
    assert page.status_code == 200
    html = page.content.decode()
    assert nights[0].name in html and LICENCE in html
    assert "Nights without a licence number" in html
    assert nights[3].date.isoformat() not in html  # outside the period
    bad: Any = client.get(f"/clubs/{ours.club.slug}/licence-report?from=yesterday")
    assert bad.status_code == 422 and "YYYY-MM-DD" in bad.content.decode()
    scorer = Client()
    scorer.force_login(ours.scorer)
    assert scorer.get(f"/clubs/{ours.club.slug}/licence-report").status_code == 403
