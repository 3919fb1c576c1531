"""Standard Webhooks signatures: `webhook-signature` lists `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
entries keyed by the secret after `whsec_`. verify accepts any listed signature, compares in constant
time and refuses a timestamp more than 5 minutes from now."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Mapping, Optional, Union

from ._errors import SignatureVerificationError
from ._models import Event

TOLERANCE_S = 5 * 60


def _key(secret: str) -> bytes:
    return base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)


class Webhook:
    @staticmethod
    def sign(secret: str, msg_id: str, timestamp: int, body: Union[str, bytes]) -> str:
        """The webhook-signature value for a message: v1,<base64>. For tests and local senders."""
        payload = body.decode("utf-8") if isinstance(body, bytes) else body
        digest = hmac.new(_key(secret), f"{msg_id}.{timestamp}.{payload}".encode("utf-8"), hashlib.sha256).digest()
        return "v1," + base64.b64encode(digest).decode("ascii")

    @staticmethod
    def verify(secret: str, headers: Mapping[str, str], raw_body: Union[str, bytes], now: Optional[float] = None) -> Event:
        """Checks a delivery's signature and returns its event; raises SignatureVerificationError."""
        lower = {k.lower(): v for k, v in headers.items()}
        msg_id, timestamp, signatures = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
        if not msg_id or not timestamp or not signatures:
            raise SignatureVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.")
        if not timestamp.isdigit() or abs((time.time() if now is None else now) - int(timestamp)) > TOLERANCE_S:
            raise SignatureVerificationError("The webhook timestamp is more than 5 minutes from now.")
        body = raw_body.decode("utf-8") if isinstance(raw_body, bytes) else raw_body
        expected = Webhook.sign(secret, msg_id, int(timestamp), body)[3:]
        for entry in signatures.split(" "):
            version, _, value = entry.partition(",")
            if version == "v1" and hmac.compare_digest(value, expected):
                try:
                    return Event(json.loads(body))
                except ValueError:
                    raise SignatureVerificationError("The signed body is not JSON.") from None
        raise SignatureVerificationError("No signature matches: check the endpoint secret (whsec_...) and pass the raw body.")
