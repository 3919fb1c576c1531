"""crm.assistant through the Python SDK: a sandbox whose assistant talks to the scripted model
provider (scripts/fake-model-provider.mjs), and one without a provider."""
import unittest

from tests.sandbox import FakeProvider, Sandbox, unique

import crm
from crm._streaming import ServerSentEvent, server_sent_events


def text(events: list) -> str:  # type: ignore[type-arg]
    return "".join(e.delta for e in events if e.type == "text")


class AssistantTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.fake = FakeProvider()
        cls.sandbox = Sandbox(["--no-seed", *cls.fake.sandbox_args()])
        cls.unconfigured = Sandbox(["--no-seed"])
        cls.crm = crm.Crm(api_key=cls.sandbox.api_key, base_url=cls.sandbox.base_url)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.fake.stop()  # first: a turn still waiting on it (the timeout test) would hold the sandbox's stop
        cls.sandbox.stop()
        cls.unconfigured.stop()

    def test_read_streams_text_and_ends_with_done(self) -> None:
        self.fake.script([{"text": "Let me look.", "toolCalls": [{"name": "list_leads", "args": {}}]}, {"text": "No leads yet."}])
        events = list(self.crm.assistant.ask("Which leads do I have?"))
        self.assertTrue(all(isinstance(e, crm.AssistantStreamEvent) for e in events))
        self.assertEqual(events[0].type, "conversation")
        tool_call = next(e for e in events if e.type == "tool_call")
        self.assertEqual((tool_call.tool, tool_call.read_only), ("list_leads", True))
        self.assertEqual(text(events), "Let me look.No leads yet.")
        self.assertEqual(dict(events[-1]), {"type": "done", "conversation_id": events[0].conversation_id, "status": "complete"})
        conversation_id = events[0].conversation_id
        listed = [c.id for c in self.crm.assistant.conversations.list().auto_paging_iter()]
        self.assertIn(conversation_id, listed)
        conversation = self.crm.assistant.conversations.retrieve(conversation_id)
        # ["items"]: conversation.items is the dict method (a CrmObject is a dict).
        self.assertEqual([i.type for i in conversation["items"]], ["user", "assistant", "tool", "assistant"])

    def test_write_waits_for_confirm_then_the_record_exists(self) -> None:
        email = f"{unique('grace')}@example.com"
        self.fake.script([{"toolCalls": [{"name": "create_lead", "args": {"first_name": "Grace", "email": email}}]}, {"text": "Done, Grace is a lead."}])
        with self.crm.assistant.ask(f"Add Grace ({email}) as a lead") as stream:
            asked = list(stream)
        card = next(e for e in asked if e.type == "confirmation_required").confirmation
        self.assertEqual((card.tool, card.status), ("create_lead", "pending"))
        self.assertEqual((asked[-1].type, asked[-1].status), ("done", "awaiting_confirmation"))
        self.assertEqual(self.crm.leads.list(email=email).data, [])

        run = list(self.crm.assistant.confirm(card.id, True))
        result = next(e for e in run if e.type == "tool_result")
        self.assertEqual((result.tool, result.is_error), ("create_lead", False))
        self.assertEqual(text(run), "Done, Grace is a lead.")
        self.assertEqual([l.first_name for l in self.crm.leads.list(email=email).data], ["Grace"])
        # The same conversation goes on with conversation_id.
        self.fake.script([{"text": "Still here."}])
        more = list(self.crm.assistant.ask("Anything else?", conversation_id=card.conversation_id))
        self.assertEqual(more[0].conversation_id, card.conversation_id)

    def test_error_event_is_an_event_not_an_exception(self) -> None:
        self.fake.script([{"toolCalls": [{"name": "list_leads", "args": {}}]}, {"status": 503}])
        events = list(self.crm.assistant.ask("List, then fail"))
        self.assertEqual((events[-1].type, events[-1].code), ("error", "assistant_provider_unavailable"))

    def test_events_arrive_as_made_and_the_timeout_is_between_them(self) -> None:
        impatient = crm.Crm(api_key=self.sandbox.api_key, base_url=self.sandbox.base_url, timeout=2)
        self.fake.script([{"text": "Let me look.", "toolCalls": [{"name": "list_leads", "args": {}}]}, {"hang": True}])
        seen = []
        with self.assertRaises(crm.ConnectionError):
            for event in impatient.assistant.ask("List, then think forever"):
                seen.append(event.type)
        self.assertEqual(seen, ["conversation", "text", "tool_call", "tool_result"])

    def test_unconfigured_raises_the_api_error_before_any_event(self) -> None:
        bare = crm.Crm(api_key=self.unconfigured.api_key, base_url=self.unconfigured.base_url, max_retries=0)
        seen = []
        with self.assertRaises(crm.ApiError) as raised:
            for event in bare.assistant.ask("Hello?"):
                seen.append(event)
        self.assertEqual((raised.exception.status, raised.exception.code), (503, "assistant_not_configured"))
        self.assertEqual(seen, [])

    def test_leaving_early_closes_the_response(self) -> None:
        self.fake.script([{"text": "A long answer in several pieces, more than one."}])
        stream = self.crm.assistant.ask("Talk")
        first = next(stream)
        self.assertEqual(first.type, "conversation")
        stream.close()
        self.assertEqual(list(stream), [])


class ServerSentEventsTest(unittest.TestCase):
    """The reader under the streamed methods, fed a body in awkward pieces."""

    def test_data_lines_comments_and_crlf_split_across_chunks(self) -> None:
        chunks = [b"\xef\xbb\xbf: heartbeat\r\nevent: text\r\ndata: {\"a\":", b"1}\r", b"\ndata:  two\r\n\r\nid: 7\ndata\rdata: x\r\r"]
        self.assertEqual(list(server_sent_events(chunks)), [
            ServerSentEvent("text", '{"a":1}\n two', None),
            ServerSentEvent("message", "\nx", "7"),
        ])

    def test_nothing_without_data_nor_cut_off(self) -> None:
        self.assertEqual(list(server_sent_events([b"id: 1\n\nevent: done\n\n", b"data: cut off"])), [])


if __name__ == "__main__":
    unittest.main()
