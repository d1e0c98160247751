"""The results of a night: the final standings with places, the prizes and who took them, how
the ties were settled, the cookie jar, and the organizer's sign-off (name and time, or blank
lines to sign). Laid out first (a list of drawing steps per page), then drawn, so that the
page count is known for the progress callback."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from scoring.printing.pdf.base import Doc, Progress

MARGIN = 40
LINE = 15.0


def ordinal(place: int, data: dict[str, Any]) -> str:
    """A place as printed, from the data's ``ordinals`` (in the document's language)."""
    ordinals: dict[str, str] = data.get("ordinals", {})
    return ordinals.get(str(place), str(place))


class Results:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.data = data
        self.pages: list[list[Callable[[], None]]] = [[]]
        self.y = 0.0
        self.currency = data.get("drive", {}).get("currency", "")

    # --- layout ---------------------------------------------------------------------------

    def _step(self, draw: Callable[[], None]) -> None:
        self.pages[-1].append(draw)

    def _need(self, height: float) -> None:
        if self.y - height < MARGIN + 24:
            self.pages.append([])
            self.y = self.doc.height - MARGIN

    def _text(self, x: float, value: Any, size: float = 10, **kw: Any) -> None:
        y = self.y
        self._step(lambda: self.doc.draw(x, y, value, size, **kw))

    def _section(self, title: str) -> None:
        self._need(LINE * 3)
        self.y -= 10
        y = self.y
        doc = self.doc

        def draw() -> None:
            doc.draw(MARGIN, y, title, 13, bold=True)
            doc.canvas.setStrokeGray(0.6)
            doc.canvas.setLineWidth(0.6)
            doc.canvas.line(MARGIN, y - 4, doc.width - MARGIN, y - 4)

        self._step(draw)
        self.y -= LINE + 4

    def _money(self, amount: str | None) -> str:
        return f"{amount} {self.currency}" if amount else ""

    def _title(self) -> None:
        doc = self.doc
        drive = self.data["drive"]
        self.y = doc.height - MARGIN - 20
        self._text(MARGIN, doc.labels["results"].upper(), 9, bold=True)
        self.y -= 24
        self._text(
            MARGIN, doc.clip(drive["name"], 22, doc.width - 2 * MARGIN, bold=True), 22, bold=True
        )
        self.y -= 16
        where = " · ".join(
            p
            for p in (
                drive["date_text"],
                drive.get("venue"),
                drive.get("club"),
            )
            if p
        )
        self._text(MARGIN, where, 10)
        self.y -= 12

    def _standings(self) -> None:
        doc = self.doc
        labels = doc.labels
        w = doc.width - 2 * MARGIN
        cols = [MARGIN, MARGIN + 0.08 * w, MARGIN + 0.18 * w, MARGIN + 0.82 * w, MARGIN + 0.93 * w]
        self._section(f"{labels['place']} · {labels['couples']}")

        def head() -> None:
            y = self.y
            self._step(lambda: doc.gray(0.35))
            for x, key in zip(cols, ("place", "couple", "players", "wins", "played"), strict=True):
                self._text(x, labels[key], 8, bold=True)
            self._step(lambda: doc.gray(0))
            self.y = y - LINE

        head()
        for i, row in enumerate(self.data["standings"]):
            if self.y - LINE < MARGIN + 24:
                self._need(LINE * 2)
                head()
            if i % 2 == 0:
                y = self.y
                self._step(partial(doc.band, MARGIN - 4, y - 4, w + 8, LINE, 0.95))
            place = ordinal(row["place"], self.data) if row["place"] else "—"
            players = " & ".join(row["players"])
            if row["withdrawn"]:
                players += f" ({labels['withdrawn']})"
            self._text(cols[0], place, 10, bold=True)
            self._text(cols[1], row["number"], 10, bold=True)
            self._text(cols[2], doc.clip(players, 10, cols[3] - cols[2] - 8), 10)
            self._text(cols[3], row["wins"], 10)
            self._text(cols[4], row["played"], 10)
            self.y -= LINE

    def _prize_line(self, head: str, prize: dict[str, Any]) -> None:
        doc = self.doc
        offered = prize.get("prize") or {}
        what = " · ".join(
            p for p in (self._money(offered.get("amount")), offered.get("description")) if p
        )
        status = prize.get("status")
        lines: list[str] = []
        if status == "awarded":
            awards = prize.get("awards", [])
            for a in awards:
                how = doc.methods.get(a.get("how"), a.get("how") or "")
                parts = [f"{doc.labels['couple']} {a['couple']}"]
                if how and a.get("how") != "direct":
                    parts.append(how)
                if len(awards) > 1 and a.get("amount"):
                    parts.append(self._money(a.get("amount")))
                lines.append(" · ".join(parts))
        elif status == "tie":
            couples = ", ".join(str(c) for c in prize.get("couples", []))
            lines.append(f"{doc.labels['couples']} {couples} — {doc.labels['open']}")
        else:
            lines.append(doc.labels["empty"])
        self._need(LINE * len(lines))
        self._text(MARGIN, head, 10, bold=True)
        self._text(MARGIN + 90, doc.clip(what, 10, 170), 10)
        for line in lines:
            self._text(MARGIN + 270, doc.clip(line, 10, doc.width - 2 * MARGIN - 270), 10)
            self.y -= LINE

    def _prizes(self) -> None:
        doc = self.doc
        prizes = self.data.get("prizes") or {}
        places = prizes.get("places", [])
        booby = prizes.get("booby", {})
        jackpot = prizes.get("jackpot", {})
        if (
            not places
            and not booby.get("enabled")
            and not jackpot.get("enabled")
            and not prizes.get("categories")
        ):
            return
        self._section(doc.labels["prizes"])
        for row in places:
            self._prize_line(ordinal(row["place"], self.data), row)
        if booby.get("enabled"):
            self._prize_line(doc.labels["booby"], booby)
        half = prizes.get("half_time", {})
        if half.get("enabled") and half.get("status") != "pending":
            self._prize_line(doc.labels["half_time"], half)
        for named in prizes.get("categories", []):
            self._prize_line(doc.clip(named["name"], 10, 86), named)
        if jackpot.get("enabled"):
            couples = ", ".join(
                f"{c} ({self._money(jackpot.get('shares', {}).get(str(c)))})"
                for c in jackpot.get("couples", [])
            )
            self._need(LINE)
            self._text(MARGIN, doc.labels["jackpot"], 10, bold=True)
            self._text(
                MARGIN + 90,
                f"{jackpot.get('threshold')}+ · {self._money(jackpot.get('amount'))}",
                10,
            )
            self._text(MARGIN + 270, couples or doc.labels["empty"], 10)
            self.y -= LINE

    def _ties(self) -> None:
        doc = self.doc
        self._section(doc.labels["ties"])
        ties = self.data.get("ties") or []
        if not ties:
            self._text(MARGIN, doc.labels["no_ties"], 10)
            self.y -= LINE
            return
        methods = doc.methods
        for tie in ties:
            if tie["kind"] == "place":
                what = ", ".join(ordinal(p, self.data) for p in tie["places"])
            elif tie["kind"] == "category":
                what = doc.clip(tie.get("name") or "", 10, 86)
            else:
                kinds = {"booby": "booby", "half-time": "half_time"}
                what = doc.labels[kinds.get(tie["kind"], "cookie_jar")]
            couples = ", ".join(str(c) for c in tie["couples"])
            if tie["state"] == "settled":
                how = methods.get(tie["method"], tie["method"] or "")
                if tie.get("winner"):
                    how += f" → {doc.labels['couple']} {tie['winner']}"
            else:
                how = doc.labels["tie_open"]
            self._need(LINE)
            self._text(MARGIN, what, 10, bold=True)
            self._text(MARGIN + 90, f"{doc.labels['couples']} {couples}", 10)
            self._text(MARGIN + 270, doc.clip(how, 10, doc.width - 2 * MARGIN - 270), 10)
            self.y -= LINE

    def _cookie_jar(self) -> None:
        doc = self.doc
        jar = self.data.get("cookie_jar") or {}
        if not jar.get("enabled"):
            return
        labels = doc.labels
        self._section(labels["cookie_jar"])
        line = (
            f"{len(jar.get('entrants', []))} {labels['entrants']} · {labels['pot']} "
            f"{self._money(jar.get('pot'))}"
        )
        self._text(MARGIN, line, 10)
        self.y -= LINE
        drawn = jar.get("drawn")
        if drawn:
            games = ", ".join(str(g) for g in drawn.get("games", []))
            self._text(MARGIN, f"{labels['drawn_games']}: {games}", 10)
            self.y -= LINE
        status = jar.get("status")
        if status == "awarded":
            who = ", ".join(
                f"{labels['couple']} {a['couple']} {self._money(a.get('amount'))}"
                for a in jar.get("awards", [])
            )
        elif status == "carried-over":
            who = f"{labels['carried_over']}: {self._money(jar.get('carried_over'))}"
        elif status == "tie":
            who = (
                f"{labels['couples']} {', '.join(map(str, jar.get('winners', [])))} — "
                f"{labels['open']}"
            )
        elif status == "empty":
            who = labels["empty"]
        else:
            who = labels["not_drawn"]
        self._text(MARGIN, who, 10, bold=True)
        self.y -= LINE

    def _sign_off(self) -> None:
        doc = self.doc
        self._need(90)
        self.y -= 24
        signed_by = self.data.get("signed_by") or ""
        signed_at = self.data.get("signed_at_text") or ""
        y = self.y
        self._text(MARGIN, doc.labels["signed"], 11, bold=True)

        def lines() -> None:
            c = doc.canvas
            c.setStrokeGray(0.3)
            c.setLineWidth(0.6)
            c.line(MARGIN + 40, y - 30, MARGIN + 250, y - 30)
            c.line(MARGIN + 300, y - 30, doc.width - MARGIN, y - 30)

        self._step(lines)
        self.y -= 27
        self._text(MARGIN, doc.labels["name"], 9)
        self._text(MARGIN + 42, signed_by, 11, bold=True)
        self._text(MARGIN + 265, doc.labels["time"], 9)
        self._text(MARGIN + 302, signed_at, 11, bold=True)
        self.y -= LINE

    def render(self, progress: Progress | None) -> bytes:
        self._title()
        self._standings()
        self._prizes()
        self._ties()
        self._cookie_jar()
        self._sign_off()
        total = len(self.pages)

        def page(steps: list[Callable[[], None]], number: int) -> Callable[[], None]:
            def draw() -> None:
                for step in steps:
                    step()
                self.doc.footer(number, total)

            return draw

        return self.doc.run([page(s, i) for i, s in enumerate(self.pages, start=1)], progress)
