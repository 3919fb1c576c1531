"""The hand-written core against live sandboxes: pages, errors, retries, rate limits."""
import http.server
import json
import os
import threading
import unittest
from typing import Any, Dict, List

from tests.sandbox import Sandbox, unique

import crm


class CoreTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.sandbox = Sandbox(["--no-seed"])
        cls.limited = Sandbox(["--no-seed", "--rate-limit", "2/1s"])
        cls.crm = crm.Crm(api_key=cls.sandbox.api_key, base_url=cls.sandbox.base_url)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.sandbox.stop()
        cls.limited.stop()

    def test_environment_fallback(self) -> None:
        saved = {k: os.environ.get(k) for k in ("CRM_API_KEY", "CRM_BASE_URL")}
        os.environ.update(CRM_API_KEY=self.sandbox.api_key, CRM_BASE_URL=self.sandbox.base_url)
        try:
            client = crm.Crm()
            self.assertEqual(client.base_url, self.sandbox.base_url)
            self.assertEqual(client.pipelines.list().last_response.status, 200)
        finally:
            for k, v in saved.items():
                os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)

    def test_auto_paging_across_pages(self) -> None:
        tag = unique("paged")
        ids = [self.crm.leads.create(last_name=f"Paged {i}", tags=[tag]).id for i in range(7)]
        first = self.crm.leads.list(tag=tag, limit=3)
        self.assertEqual((len(first.data), first.has_more), (3, True))
        self.assertEqual([lead.id for lead in first.auto_paging_iter()], ids)  # three pages, in order, each once

    def assertRaisesFamily(self, family: type, call: Any) -> crm.CrmError:
        with self.assertRaises(family) as caught:
            call()
        self.assertIsInstance(caught.exception, crm.CrmError)
        return caught.exception

    def test_error_families_from_real_responses(self) -> None:
        bad = crm.Crm(api_key="crm_test_nope", base_url=self.sandbox.base_url, max_retries=0)
        self.assertRaisesFamily(crm.AuthenticationError, lambda: bad.leads.list())
        reader = self.crm.api_keys.create(name="reader", scopes=["leads:read"])
        denied = self.assertRaisesFamily(crm.PermissionError, lambda: self.crm.leads.create(first_name="x", api_key=reader.secret))
        self.assertEqual(denied.status, 403)
        missing = self.assertRaisesFamily(crm.NotFoundError, lambda: self.crm.leads.retrieve("lead_00000000000000000000000000"))
        self.assertTrue(missing.request_id.startswith("req_"))
        won = self.crm.deals.create(title="t", value=1, currency="EUR", stage="won")
        self.assertEqual(self.assertRaisesFamily(crm.ConflictError, lambda: self.crm.deals.lose(won.id)).code, "invalid_transition")
        key = unique("key")
        self.crm.leads.create(first_name="one", idempotency_key=key)
        reused = self.assertRaisesFamily(crm.IdempotencyError, lambda: self.crm.leads.create(first_name="two", idempotency_key=key))
        self.assertEqual(reused.code, "idempotency_key_reused")
        invalid = self.assertRaisesFamily(crm.ValidationError, lambda: self.crm.leads.create(email="not-an-email"))
        self.assertEqual(invalid.errors[0]["path"], "email")
        self.crm.raw_request("POST", "/_sandbox/faults", {"method": "GET", "path_prefix": "/v1/pipelines", "status": 500, "count": 1})
        self.assertRaisesFamily(crm.ApiError, lambda: self.crm.pipelines.list(max_retries=0))
        nowhere = crm.Crm(api_key="k", base_url="http://127.0.0.1:9", max_retries=0)
        self.assertRaisesFamily(crm.ConnectionError, lambda: nowhere.leads.list())
        with self.assertRaises(TypeError):
            self.crm.leads.list(idempotency_kye="typo")  # type: ignore[call-arg]

    def test_retried_write_is_seen_once(self) -> None:
        self.crm.raw_request("POST", "/_sandbox/faults", {"method": "POST", "path_prefix": "/v1/leads", "status": 503, "count": 2})
        email = f"{unique('retried')}@example.com"
        lead = self.crm.leads.create(email=email)
        self.assertEqual(lead.last_response.status, 201)
        self.assertEqual(len(self.crm.leads.list(email=email).data), 1)
        events = [e for e in self.crm.events.list(type="lead.created").auto_paging_iter() if e.data.object.id == lead.id]
        self.assertEqual(len(events), 1)

    def test_same_idempotency_key_and_user_agent_on_every_retry(self) -> None:
        seen: List[Dict[str, str]] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("content-length", 0)))
                seen.append({k.lower(): v for k, v in self.headers.items()})
                busy = len(seen) < 3
                body = json.dumps({"detail": "busy"} if busy else {"id": "lead_1"}).encode()
                self.send_response(503 if busy else 201)
                self.send_header("content-type", "application/json")
                self.send_header("retry-after", "0")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            local = crm.Crm(api_key="k", base_url=f"http://127.0.0.1:{server.server_address[1]}")
            self.assertEqual(local.leads.create(first_name="x").id, "lead_1")
        finally:
            server.shutdown()
            server.server_close()
        self.assertEqual(len(seen), 3)
        self.assertEqual(len({h["idempotency-key"] for h in seen}), 1)
        self.assertRegex(seen[0]["user-agent"], r"^crm-sdk-python/0\.1\.0 \(python 3\.")

    def test_rate_limit_waited_out(self) -> None:
        client = crm.Crm(api_key=self.limited.api_key, base_url=self.limited.base_url)
        for i in range(5):
            self.assertEqual(client.leads.create(first_name=f"burst {i}").last_response.status, 201)
        statuses = {s.status: s.requests for s in client.usage.retrieve().by_status}
        self.assertGreater(statuses.get(429, 0), 0)
        impatient = crm.Crm(api_key=self.limited.api_key, base_url=self.limited.base_url, max_retries=0)
        with self.assertRaises(crm.RateLimitError) as caught:
            for _ in range(5):
                impatient.pipelines.list()
        self.assertGreaterEqual(caught.exception.retry_after, 0)


if __name__ == "__main__":
    unittest.main()
