"""CrmObject: a record as the API returned it. A dict (json.dumps works, the API's snake_case keys)
whose fields also read as attributes (lead.first_name), with the HTTP response it came from."""
from __future__ import annotations

from typing import Any, Optional


class CrmObject(dict):  # type: ignore[type-arg]
    last_response: Optional["Response"]

    def __init__(self, values: Any = (), last_response: Optional["Response"] = None) -> None:
        super().__init__({k: _wrap(v) for k, v in dict(values).items()})
        object.__setattr__(self, "last_response", last_response)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return CrmObject(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Response:
    """The HTTP response an object came from: status, headers, request id, rate-limit fields."""

    def __init__(self, status: int, headers: dict) -> None:  # type: ignore[type-arg]
        self.status = status
        self.headers = headers
        self.request_id = headers.get("x-request-id")
        number = lambda name: int(headers[name]) if headers.get(name, "").isdigit() else None  # noqa: E731
        self.rate_limit = {"limit": number("x-ratelimit-limit"), "remaining": number("x-ratelimit-remaining"), "reset": number("x-ratelimit-reset")}

    def __repr__(self) -> str:
        return f"Response(status={self.status}, request_id={self.request_id!r})"
