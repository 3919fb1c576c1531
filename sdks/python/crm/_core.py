"""The hand-written core: one request path for every generated method. It adds the key, an
Idempotency-Key on every write (the caller's or a fresh UUID4, the same on each retry), retries
network errors, 408, 409 idempotency_key_in_use, 429 and 5xx (waiting Retry-After when given, else
0.5 s doubling to 8 s with jitter), and raises CrmError classes; `stream` opens a streamed method
the same way. Standard library only (urllib)."""
from __future__ import annotations

import json
import os
import platform
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import TYPE_CHECKING, Any, Dict, Iterable, Optional, Tuple, Type, TypedDict, TypeVar

from ._errors import ConnectionError, CrmError, error_from_response
from ._object import CrmObject, Response

if TYPE_CHECKING:
    from ._streaming import EventStream

VERSION = "0.1.0"
_WRITES = {"POST", "PATCH", "DELETE"}
_MAX_RETRY_AFTER_S = 60  # a longer Retry-After falls back to the backoff: never sleep minutes unasked
T = TypeVar("T", bound=CrmObject)


class NotGiven:
    """The default of optional arguments: the field is not sent (None sends JSON null)."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


NOT_GIVEN = NotGiven()


class RequestOptions(TypedDict, total=False):
    idempotency_key: str
    api_key: str
    max_retries: int
    timeout: float
    headers: Dict[str, str]


def _given(pairs: Iterable[Tuple[str, Any]]) -> Dict[str, Any]:
    return {name: value for name, value in pairs if not isinstance(value, NotGiven)}


def _quote(value: str) -> str:
    return urllib.parse.quote(str(value), safe="")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Core:
    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, max_retries: int = 2, timeout: float = 60.0) -> None:
        self.api_key = api_key or os.environ.get("CRM_API_KEY") or None
        self.base_url = (base_url or os.environ.get("CRM_BASE_URL") or "http://127.0.0.1:4010").rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout
        self.user_agent = f"crm-sdk-python/{VERSION} (python {platform.python_version()})"
        # No proxies from the environment: the sandbox is usually on loopback.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())

    def request(self, method: str, path: str, *, query: Optional[Dict[str, Any]] = None, body: Any = None,
                options: Optional[RequestOptions] = None) -> Tuple[Any, Response]:
        text, response = self._send(method, path, query, body, options, stream=False)
        return _parse(text, response.headers), response

    def stream(self, method: str, path: str, *, body: Any, model: Type[T], options: RequestOptions) -> "EventStream[T]":
        """A streamed method: its events, the request sent when iteration starts (_streaming.py)."""
        from ._streaming import EventStream

        return EventStream(lambda: self._send(method, path, None, body, options, stream=True), model)

    def _send(self, method: str, path: str, query: Optional[Dict[str, Any]], body: Any, options: Optional[RequestOptions],
              *, stream: bool) -> Tuple[Any, Response]:
        """Sends with retries; returns a 2xx answer's text, or with stream its open HTTP response."""
        options = dict(options or {})
        unknown = set(options) - set(RequestOptions.__annotations__)
        if unknown:
            raise TypeError(f"unknown request option(s): {', '.join(sorted(unknown))}")
        api_key = options.get("api_key") or self.api_key
        if not api_key:
            raise CrmError("No API key: pass api_key to Crm(...) or set CRM_API_KEY.")
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: _query_value(v) for k, v in query.items() if v is not None})
        accept = "text/event-stream" if stream else "application/json"
        headers = {"Authorization": f"Bearer {api_key}", "Accept": accept, "User-Agent": self.user_agent}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if method in _WRITES:
            headers["Idempotency-Key"] = options.get("idempotency_key") or str(uuid.uuid4())
        headers.update(options.get("headers") or {})
        max_retries = options.get("max_retries", self.max_retries)
        # A socket timeout bounds each wait for bytes: for a stream, the wait between two events.
        timeout = options.get("timeout", self.timeout)

        attempt = 0
        while True:
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                raw = self._opener.open(request, timeout=timeout)
                status, response_headers = raw.status, _lower(raw.headers.items())
                if stream:
                    return raw, Response(status, response_headers)
                with raw:
                    text = raw.read().decode("utf-8")
            except urllib.error.HTTPError as error:
                status, response_headers, text = error.code, _lower(error.headers.items()), error.read().decode("utf-8", "replace")
                error.close()
            except (urllib.error.URLError, socket.timeout, OSError) as error:
                if attempt < max_retries:
                    time.sleep(_backoff(attempt))
                    attempt += 1
                    continue
                raise ConnectionError(f"Could not reach {self.base_url}: {getattr(error, 'reason', error)}") from error
            if 200 <= status < 300:
                return text, Response(status, response_headers)
            failure = error_from_response(status, response_headers, _parse(text, response_headers))
            if attempt < max_retries and _retryable(status, failure.code):
                time.sleep(_retry_delay(response_headers, attempt))
                attempt += 1
                continue
            raise failure

    def call(self, method: str, path: str, *, model: Type[T], options: RequestOptions, query: Optional[Dict[str, Any]] = None, body: Any = None) -> T:
        parsed, response = self.request(method, path, query=query, body=body, options=options)
        return model(parsed if isinstance(parsed, dict) else {"value": parsed}, last_response=response)

    def page(self, method: str, path: str, query: Optional[Dict[str, Any]], model: Type[T], options: RequestOptions) -> "Page[T]":
        from ._pagination import Page

        return Page.fetch(self, path, dict(query or {}), model, options)


def _query_value(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else value


def _lower(items: Iterable[Tuple[str, str]]) -> Dict[str, str]:
    return {name.lower(): value for name, value in items}


def _parse(text: str, headers: Dict[str, str]) -> Any:
    if "json" not in headers.get("content-type", "") or not text:
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _retryable(status: int, code: Optional[str]) -> bool:
    return status in (408, 429) or status >= 500 or (status == 409 and code == "idempotency_key_in_use")


def _backoff(attempt: int) -> float:
    """0.5 s doubling to 8 s, less up to a quarter at random so that clients retrying together spread out."""
    return min(0.5 * 2 ** attempt, 8.0) * (1 - random.random() * 0.25)


def _retry_delay(headers: Dict[str, str], attempt: int) -> float:
    value = headers.get("retry-after", "")
    return float(value) if value.isdigit() and int(value) <= _MAX_RETRY_AFTER_S else _backoff(attempt)
