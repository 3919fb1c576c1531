"""Webhook.verify and sign pass the shared test vectors (sdks/test-vectors/webhooks.json)."""
import json
import time
import unittest
from pathlib import Path

import tests.sandbox  # noqa: F401 - puts the package on the path

import crm

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "test-vectors" / "webhooks.json").read_text())


class WebhookTest(unittest.TestCase):
    def test_shared_vectors(self) -> None:
        for case in VECTORS["cases"]:
            with self.subTest(case["name"]):
                headers = {"webhook-id": case["id"], "webhook-timestamp": str(case["timestamp"]), "webhook-signature": case["signature"]}
                if case["valid"]:
                    event = crm.Webhook.verify(case["secret"], headers, case["body"], now=case["now"])
                    self.assertEqual(event.id, json.loads(case["body"])["id"])
                    self.assertIsInstance(event, crm.Event)
                else:
                    with self.assertRaises(crm.SignatureVerificationError):
                        crm.Webhook.verify(case["secret"], headers, case["body"], now=case["now"])

    def test_signs_what_it_verifies(self) -> None:
        now = int(time.time())
        body = '{"id":"evt_1","type":"lead.created"}'
        signature = crm.Webhook.sign(VECTORS["secret"], "msg_1", now, body)
        event = crm.Webhook.verify(VECTORS["secret"], {"Webhook-Id": "msg_1", "Webhook-Timestamp": str(now), "Webhook-Signature": signature}, body.encode())
        self.assertEqual(event.type, "lead.created")


if __name__ == "__main__":
    unittest.main()
