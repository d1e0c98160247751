"""The print page of a night: choose a document and its paper, "Print", watch the progress
bar (the page polls a small JSON status view every second), download the PDF. A document
already up to date downloads at once. Organizers and scorers of the club; anyone else 404.
The treasurer's sheet is for those the money page lets in (``document_allowed``): the others
neither see it offered nor among the printed documents. ``?document=accounts`` chooses a
document in the form (the money page's old address for the sheet comes here)."""

from __future__ import annotations

from typing import Any

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from drives.errors import ServiceError
from drives.models import Drive
from drives.views import MEMBERS, desk_actor, drive_links, drive_page
from scoring.models import Document
from scoring.printing.rendering import document_allowed, document_filename
from scoring.printing.services import document_request, document_status, local_only, qr_base_url


def _base_url(request: HttpRequest) -> str:
    return qr_base_url(request)


def _only_this_computer(request: HttpRequest) -> bool:
    """True when the QR codes printed from this page would carry an address only this computer
    can reach."""
    return local_only(_base_url(request))


def _document(request: HttpRequest, drive: Drive, pk: int) -> Document:
    document = Document.objects.select_related("drive").filter(drive=drive, pk=pk).first()
    if document is None or not document_allowed(drive, document.kind, request.user):
        raise Http404("No such document.")
    return document


def _urls(document: Document) -> dict[str, str]:
    kwargs = {"slug": document.drive.slug, "pk": document.pk}
    return {
        "status_url": reverse("night:print_status", kwargs=kwargs),
        "download_url": reverse("night:print_download", kwargs=kwargs),
        "page_url": reverse("night:print_document", kwargs=kwargs),
    }


def _render(
    request: HttpRequest,
    drive: Drive,
    role: str,
    *,
    current: Document | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    kinds = [
        (kind, label)
        for kind, label in Document.Kind.choices
        if document_allowed(drive, kind, request.user)
    ]
    shown = [kind for kind, _label in kinds]
    documents = [
        document_status(d) | _urls(d)
        for d in Document.objects.filter(drive=drive, kind__in=shown).select_related("drive")[:50]
    ]
    context: dict[str, Any] = {
        "drive": drive,
        "role": role,
        "links": drive_links(drive, "night:print", role),
        "kinds": kinds,
        "papers": Document.Paper.choices,
        "documents": documents,
        "current": document_status(current) | _urls(current) if current else None,
        "posted": request.POST if request.method == "POST" else request.GET,
        "error": error,
        "qr_address": _base_url(request) + "/",
        "qr_local": _only_this_computer(request),
    }
    return render(request, "scoring/printing.html", context, status=status)


@drive_page(*MEMBERS)
@require_GET
def print_page(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The documents to print, and those already printed."""
    return _render(request, drive, role)


@drive_page(*MEMBERS)
@require_POST
def print_request(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Ask for a document: an up-to-date one downloads at once, else its progress page."""
    post = request.POST
    try:
        document = document_request(
            drive,
            post.get("document", ""),
            desk_actor(request),
            paper=post.get("paper", Document.Paper.LETTER),
            game=post.get("game") or None,
            couple=post.get("couple") or None,
            filled=post.get("filled") == "on",
            base_url=_base_url(request),
        )
    except ServiceError as error:
        return _render(request, drive, role, error=error.message, status=error.status)
    document.refresh_from_db()
    if document.status == Document.Status.DONE:
        return redirect(_urls(document)["download_url"])
    return redirect(_urls(document)["page_url"])


@drive_page(*MEMBERS)
@require_GET
def print_document(request: HttpRequest, drive: Drive, role: str, pk: int) -> HttpResponse:
    """One document's progress bar and download link."""
    return _render(request, drive, role, current=_document(request, drive, pk))


@drive_page(*MEMBERS)
@require_GET
def print_status(request: HttpRequest, drive: Drive, role: str, pk: int) -> JsonResponse:
    """The document's status as JSON, polled by the progress bar."""
    document = _document(request, drive, pk)
    return JsonResponse(document_status(document) | _urls(document))


@drive_page(*MEMBERS)
@require_GET
def print_download(request: HttpRequest, drive: Drive, role: str, pk: int) -> FileResponse:
    """The PDF (404 until there is one)."""
    return document_file_response(_document(request, drive, pk))


def document_file_response(document: Document) -> FileResponse:
    if not document.file.name or not document.file.storage.exists(document.file.name):
        raise Http404("The document is not ready.")
    return FileResponse(
        document.file.open("rb"),
        as_attachment=True,
        filename=document_filename(document),
        content_type="application/pdf",
    )
