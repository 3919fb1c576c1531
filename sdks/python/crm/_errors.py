"""One base class, CrmError, and one class per family (docs/sdk-surface.md#errors), picked from the status and
the problem's code (RFC 9457 body: type, title, status, detail, code, request_id, errors)."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional


class CrmError(Exception):
    """Any error of the SDK: status, code, message, request_id, errors, body and headers."""

    def __init__(self, message: str, *, status: Optional[int] = None, code: Optional[str] = None,
                 request_id: Optional[str] = None, errors: Optional[List[Dict[str, Any]]] = None,
                 body: Any = None, headers: Optional[Mapping[str, str]] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.errors = errors or []
        self.body = body
        self.headers = dict(headers or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, message={self.message!r})"


class AuthenticationError(CrmError): pass
class PermissionError(CrmError): pass  # noqa: A001 - the family's name in every SDK
class NotFoundError(CrmError): pass
class ConflictError(CrmError): pass
class IdempotencyError(CrmError): pass
class ValidationError(CrmError): pass
class PlanLimitError(CrmError): pass
class ApiError(CrmError): pass
class ConnectionError(CrmError): pass  # noqa: A001
class SignatureVerificationError(CrmError): pass


class RateLimitError(CrmError):
    def __init__(self, message: str, *, retry_after: Optional[float] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


_BY_STATUS = {400: ValidationError, 422: ValidationError, 401: AuthenticationError, 402: PlanLimitError,
              403: PermissionError, 404: NotFoundError, 409: ConflictError}


def error_from_response(status: int, headers: Mapping[str, str], body: Any) -> CrmError:
    problem = body if isinstance(body, dict) else {}
    message = problem.get("detail") or problem.get("title") or (body if isinstance(body, str) and body else f"HTTP {status}")
    kwargs: Dict[str, Any] = dict(status=status, code=problem.get("code"), errors=problem.get("errors"),
                                  request_id=problem.get("request_id") or headers.get("x-request-id"), body=body, headers=headers)
    code = problem.get("code") or ""
    if code.startswith("idempotency_key_"):
        return IdempotencyError(message, **kwargs)
    if status == 429:
        retry_after = headers.get("retry-after")
        return RateLimitError(message, retry_after=float(retry_after) if retry_after and retry_after.isdigit() else None, **kwargs)
    return _BY_STATUS.get(status, ApiError)(message, **kwargs)
