"""The crm SDK for Python: Crm(api_key=..., base_url=...), typed resources, retries with
idempotency keys, auto-pagination, Standard Webhooks verification. Standard library only."""
from __future__ import annotations

from typing import Any, Dict, Optional

from ._core import NOT_GIVEN, VERSION, Core, RequestOptions
from ._errors import (ApiError, AuthenticationError, ConflictError, ConnectionError, CrmError, IdempotencyError,
                      NotFoundError, PermissionError, PlanLimitError, RateLimitError, SignatureVerificationError,
                      ValidationError)
from ._models import *  # noqa: F401,F403 - the typed models (Lead, Client, ...)
from ._object import CrmObject, Response
from ._pagination import Page
from ._resources import Resources
from ._webhook import Webhook

__version__ = VERSION


class Crm(Resources):
    """A client. api_key and base_url default to CRM_API_KEY and CRM_BASE_URL."""

    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, *, max_retries: int = 2, timeout: float = 60.0) -> None:
        self._core = Core(api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout)
        super().__init__(self._core)

    @property
    def base_url(self) -> str:
        return self._core.base_url

    def raw_request(self, method: str, path: str, body: Any = None, **options: Any) -> CrmObject:
        """Any endpoint: crm.raw_request("GET", "/v1/leads?limit=1")."""
        parsed, response = self._core.request(method.upper(), path, body=body, options=options)  # type: ignore[arg-type]
        return CrmObject(parsed if isinstance(parsed, dict) else {"value": parsed}, last_response=response)


__all__ = ["Crm", "CrmError", "ApiError", "AuthenticationError", "ConflictError", "ConnectionError", "IdempotencyError",
           "NotFoundError", "PermissionError", "PlanLimitError", "RateLimitError", "SignatureVerificationError",
           "ValidationError", "Webhook", "Page", "CrmObject", "Response", "RequestOptions", "NOT_GIVEN"]
