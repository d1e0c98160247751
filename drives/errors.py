"""The one error type services raise: a stable code, words for a person, and the HTTP status
the API answers with. Views and commands turn it into a 4xx or a form error; nothing else."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the night cannot accept. ``status``: 404 unknown, 403 not allowed, 409 in the
    way of something already there, 422 invalid. ``details`` carries structured extras (the
    tables still missing, the CSV lines at fault)."""

    status = 422

    def __init__(
        self, code: str, message: str, *, status: int | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details}


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409
