"""Every resource and action of docs/sdk-surface.md#resources-and-methods through the Python SDK, against a live sandbox."""
import json
import unittest

from tests.sandbox import Sandbox, unique

import crm


class ResourcesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.sandbox = Sandbox(["--no-seed"])
        cls.crm = crm.Crm(api_key=cls.sandbox.api_key, base_url=cls.sandbox.base_url)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.sandbox.stop()

    def test_leads(self) -> None:
        email = f"{unique('ada')}@example.com"
        lead = self.crm.leads.create(first_name="Ada", email=email, tags=["vip"])
        self.assertIsInstance(lead, crm.Lead)
        self.assertEqual((lead.first_name, lead.email, lead.status, lead.tags), ("Ada", email, "new", ["vip"]))
        self.assertTrue(lead.id.startswith("lead_"))
        self.assertEqual(lead.last_response.status, 201)
        self.assertTrue(lead.last_response.request_id.startswith("req_"))
        self.assertNotIn("last_response", json.dumps(lead))
        self.assertEqual(self.crm.leads.retrieve(lead.id).email, email)
        self.assertEqual(self.crm.leads.update(lead.id, status="qualified").status, "qualified")
        self.assertIsNone(self.crm.leads.update(lead.id, phone=None).phone)  # None sends null; unset fields are not sent
        self.assertEqual(self.crm.leads.retrieve(lead.id).status, "qualified")
        page = self.crm.leads.list(email=email)
        self.assertEqual([l.id for l in page.data], [lead.id])
        self.assertFalse(page.has_more)

        company = self.crm.leads.create(company="Babbage Ltd", email=f"{unique('c')}@example.com")
        converted = self.crm.leads.convert(company.id, deal={"title": "Engine", "value": 100, "currency": "EUR"})
        self.assertEqual(converted.lead.status, "converted")
        self.assertEqual(converted.client.name, "Babbage Ltd")
        self.assertEqual(converted.deal.title, "Engine")

        self.assertEqual(dict(self.crm.leads.delete(lead.id)), {"id": lead.id, "deleted": True})
        bulk = self.crm.leads.bulk(mode="upsert", match_on="email", records=[{"first_name": "B1", "email": f"{unique('b')}@example.com"}, {"first_name": "B2", "email": "not-an-email"}])
        self.assertEqual(dict(bulk.summary), {"created": 1, "updated": 0, "unchanged": 0, "failed": 1})

    def test_custom_field_definitions(self) -> None:
        # A field named like the request options' catch-all takes a trailing underscore: options_.
        key = unique("tier").replace("-", "_").lower()
        field = self.crm.fields.create(object="client", key=key, label="Tier", type="select", options_=[{"value": "gold", "label": "Gold"}])
        self.assertEqual([o["value"] for o in field.options], ["gold"])
        changed = self.crm.fields.update(field.id, options_=[{"value": "gold", "label": "Gold"}, {"value": "silver", "label": "Silver"}])
        self.assertEqual([o["value"] for o in changed.options], ["gold", "silver"])
        self.assertIn(field.id, [f.id for f in self.crm.fields.list(object="client").data])
        self.assertTrue(self.crm.fields.delete(field.id).deleted)

    def test_clients_and_contacts(self) -> None:
        client = self.crm.clients.create(name="Lovelace & Co", kind="company", email=f"{unique('info')}@example.com", address={"city": "London", "country": "GB"})
        self.assertEqual(client.address.city, "London")
        contact = self.crm.clients.contacts.create(client.id, first_name="Charles", role="CTO")
        self.assertEqual(self.crm.clients.contacts.retrieve(client.id, contact.id).role, "CTO")
        self.assertEqual(self.crm.clients.contacts.update(client.id, contact.id, role="CEO").role, "CEO")
        self.assertEqual([c.id for c in self.crm.clients.contacts.list(client.id).auto_paging_iter()], [contact.id])
        self.assertTrue(self.crm.clients.contacts.delete(client.id, contact.id).deleted)
        self.assertEqual(self.crm.clients.update(client.id, website="https://lovelace.example").website, "https://lovelace.example")
        self.assertTrue(self.crm.clients.delete(client.id).deleted)

    def test_deals(self) -> None:
        deal = self.crm.deals.create(title="Difference Engine", value=5000, currency="GBP", stage="qualified")
        self.assertEqual(self.crm.deals.win(deal.id).stage, "won")
        self.assertEqual(self.crm.deals.reopen(deal.id, stage="proposal").stage, "proposal")
        lost = self.crm.deals.lose(deal.id, reason="budget")
        self.assertEqual((lost.stage, lost.lost_reason), ("lost", "budget"))
        self.assertEqual(self.crm.deals.update(deal.id, title="Analytical Engine").title, "Analytical Engine")
        tag = unique("summary")
        self.crm.deals.bulk(mode="create", records=[{"title": f"S{v}", "value": v, "currency": "EUR", "stage": "qualified", "tags": [tag]} for v in (0.1, 0.2)])
        summary = self.crm.deals.summarize(tag=tag)
        self.assertEqual(summary.count, 2)
        qualified = next(s for s in summary.stages if s.stage == "qualified")
        self.assertEqual((qualified.count, [(t.currency, t.count, t.value) for t in qualified.totals]), (2, [("EUR", 2, 0.3)]))
        self.assertIn("won", [s.id for s in self.crm.pipelines.list().data[0].stages])
        self.assertTrue(self.crm.deals.delete(deal.id).deleted)

    def test_invoices(self) -> None:
        client = self.crm.clients.create(name="Invoice Co", email=f"{unique('billing')}@example.com")
        draft = self.crm.invoices.create(client_id=client.id, currency="EUR", send=False, line_items=[{"description": "Gears", "quantity": 3, "unit_price": 19.99}])
        self.assertEqual((draft.status, draft.total), ("draft", 59.97))
        self.assertEqual(self.crm.invoices.update(draft.id, due_date="2030-01-31").due_date, "2030-01-31")
        sent = self.crm.invoices.send(draft.id)
        self.assertEqual(sent.status, "open")
        self.assertIn("/pay/", sent.payment_link)
        self.assertEqual(self.crm.invoices.pay(draft.id).status, "paid")
        other = self.crm.invoices.create(client_id=client.id, send=False, line_items=[{"description": "Cogs", "quantity": 1, "unit_price": 5}])
        self.assertEqual(self.crm.invoices.void(other.id).status, "void")
        self.assertEqual(self.crm.invoices.retrieve(other.id).status, "void")

    def test_webhooks_events_keys_apps_usage(self) -> None:
        endpoint = self.crm.webhook_endpoints.create(url="http://127.0.0.1:9/hooks", enabled_events=["lead.created"])
        self.assertTrue(endpoint.secret.startswith("whsec_"))
        self.assertNotIn("secret", self.crm.webhook_endpoints.retrieve(endpoint.id))
        self.assertEqual(self.crm.webhook_endpoints.update(endpoint.id, description="test").description, "test")
        self.assertNotEqual(self.crm.webhook_endpoints.rotate_secret(endpoint.id).secret, endpoint.secret)
        self.assertIsNone(self.crm.webhook_endpoints.rotate_secret(endpoint.id, expire_old=True).previous_secret_expires_at)
        self.crm.leads.create(first_name="Evented")
        event = self.crm.events.list(type="lead.created").data[-1]
        self.assertEqual(self.crm.events.retrieve(event.id).type, "lead.created")
        self.assertEqual(self.crm.events.resend(event.id, endpoint_id=endpoint.id).last_response.status, 202)
        self.assertEqual(self.crm.webhook_endpoints.recover(endpoint.id, since="2020-01-01T00:00:00Z").last_response.status, 202)
        self.assertIsInstance(self.crm.webhook_endpoints.list_deliveries(endpoint.id).data, list)
        self.assertTrue(self.crm.webhook_endpoints.delete(endpoint.id).deleted)

        key = self.crm.api_keys.create(name="reader", scopes=["leads:read"])
        self.assertTrue(key.secret.startswith("crm_test_"))
        self.assertEqual(self.crm.api_keys.retrieve(key.id).scopes, ["leads:read"])
        self.assertIn(key.id, [k.id for k in self.crm.api_keys.list().data])
        self.assertIsNotNone(self.crm.api_keys.delete(key.id).revoked_at)
        app = self.crm.oauth_apps.create(name="Py app", redirect_uris=["http://localhost/cb"], scopes=["leads:read"])
        self.assertTrue(app.client_secret)
        self.assertIn(app.id, [a.id for a in self.crm.oauth_apps.list().data])
        self.assertGreater(len(self.crm.usage.retrieve().by_endpoint), 0)

    def test_raw_request(self) -> None:
        health = self.crm.raw_request("GET", "/healthz")
        self.assertEqual((health.status, health.last_response.status), ("ok", 200))


if __name__ == "__main__":
    unittest.main()
