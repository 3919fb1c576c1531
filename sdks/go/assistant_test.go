package crm_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

// fakeProvider is the scripted model provider (scripts/fake-model-provider.mjs, over
// test/helpers/fake-model-provider.ts): a real HTTP server speaking OpenAI's protocol.
type fakeProvider struct {
	URL        string `json:"url"`
	ControlURL string `json:"control_url"`
	cmd        *exec.Cmd
	stdin      io.Closer
	stopped    bool
}

func startFakeProvider(t *testing.T) *fakeProvider {
	t.Helper()
	node := os.Getenv("CRM_NODE")
	if node == "" {
		node = "node"
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "fake-model-provider.mjs"))
	cmd := exec.Command(node, script)
	// Its stdin is a pipe: when the tests end, it closes and the provider stops.
	stdin, err := cmd.StdinPipe()
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	f := &fakeProvider{cmd: cmd, stdin: stdin}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the fake model provider did not start: %v", err)
	}
	must(t, json.Unmarshal([]byte(line), f))
	t.Cleanup(f.stop)
	return f
}

// stop ends the provider (closing its stdin); again is a no-op.
func (f *fakeProvider) stop() {
	if !f.stopped {
		f.stopped = true
		_ = f.stdin.Close()
		_ = f.cmd.Wait()
	}
}

// script sets what the next model calls answer: {"text": …, "toolCalls": [{"name", "args"}]} or {"status": 503}.
func (f *fakeProvider) script(t *testing.T, steps ...map[string]interface{}) {
	t.Helper()
	body, _ := json.Marshal(steps)
	res, err := http.Post(f.ControlURL+"/script", "application/json", bytes.NewReader(body))
	must(t, err)
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("scripting the provider: %d", res.StatusCode)
	}
}

func collect(t *testing.T, stream *crm.Stream[crm.AssistantStreamEvent]) []*crm.AssistantStreamEvent {
	t.Helper()
	defer stream.Close()
	var events []*crm.AssistantStreamEvent
	for stream.Next() {
		events = append(events, stream.Event())
	}
	must(t, stream.Err())
	return events
}

func find(events []*crm.AssistantStreamEvent, typ string) *crm.AssistantStreamEvent {
	for _, e := range events {
		if e.Type == typ {
			return e
		}
	}
	return nil
}

func streamedText(events []*crm.AssistantStreamEvent) string {
	var b strings.Builder
	for _, e := range events {
		if e.Type == "text" {
			b.WriteString(e.Delta)
		}
	}
	return b.String()
}

func TestAssistant(t *testing.T) {
	fake := startFakeProvider(t)
	sb, err := startSandbox("--no-seed", "--assistant-url", fake.URL+"/v1", "--assistant-model", "fake-model")
	must(t, err)
	// The provider first: a turn still waiting on it (the timeout test) would hold the sandbox's stop.
	defer sb.stop()
	defer fake.stop()
	client, ctx := crm.NewClient(sb.APIKey, &crm.Options{BaseURL: sb.BaseURL}), context.Background()

	t.Run("a read streams text and ends with done", func(t *testing.T) {
		fake.script(t, map[string]interface{}{"text": "Let me look.", "toolCalls": []interface{}{map[string]interface{}{"name": "list_leads", "args": map[string]interface{}{}}}},
			map[string]interface{}{"text": "No leads yet."})
		events := collect(t, client.Assistant.Ask(ctx, "Which leads do I have?", nil))
		if len(events) == 0 || events[0].Type != "conversation" {
			t.Fatalf("events %+v", events)
		}
		if call := find(events, "tool_call"); call == nil || call.Tool != "list_leads" || !call.ReadOnly {
			t.Fatalf("tool call %+v", call)
		}
		if got := streamedText(events); got != "Let me look.No leads yet." {
			t.Fatalf("text %q", got)
		}
		last := events[len(events)-1]
		if last.Type != "done" || last.Status != "complete" {
			t.Fatalf("last %+v", last)
		}
		id := events[0].ConversationID
		found := false
		it := client.Assistant.Conversations.List(ctx, nil)
		for it.Next() {
			found = found || it.AssistantConversation().ID == id
		}
		must(t, it.Err())
		conversation, err := client.Assistant.Conversations.Retrieve(ctx, id)
		must(t, err)
		if !found || len(conversation.Items) != 4 || conversation.Items[2].Type != "tool" {
			t.Fatalf("listed %v, conversation %+v", found, conversation)
		}
	})

	t.Run("a write waits for Confirm, then the record exists", func(t *testing.T) {
		email := unique("grace") + "@example.com"
		fake.script(t, map[string]interface{}{"toolCalls": []interface{}{map[string]interface{}{"name": "create_lead", "args": map[string]interface{}{"first_name": "Grace", "email": email}}}},
			map[string]interface{}{"text": "Grace is a lead now."})
		asked := collect(t, client.Assistant.Ask(ctx, "Add Grace ("+email+") as a lead", nil))
		card := find(asked, "confirmation_required")
		if card == nil || card.Confirmation.Tool != "create_lead" || card.Confirmation.Status != "pending" {
			t.Fatalf("events %+v", asked)
		}
		leads := func() []string {
			var names []string
			it := client.Leads.List(ctx, &crm.LeadListParams{Email: crm.String(email)})
			for it.Next() {
				names = append(names, *it.Lead().FirstName)
			}
			must(t, it.Err())
			return names
		}
		if got := leads(); len(got) != 0 {
			t.Fatalf("the lead exists before Confirm: %v", got)
		}
		run := collect(t, client.Assistant.Confirm(ctx, card.Confirmation.ID, true))
		if result := find(run, "tool_result"); result == nil || result.IsError {
			t.Fatalf("events %+v", run)
		}
		if got := streamedText(run); got != "Grace is a lead now." {
			t.Fatalf("text %q", got)
		}
		if got := leads(); fmt.Sprint(got) != "[Grace]" {
			t.Fatalf("leads %v", got)
		}
		fake.script(t, map[string]interface{}{"text": "Still here."})
		more := collect(t, client.Assistant.Ask(ctx, "Anything else?", &crm.AssistantAskParams{ConversationID: crm.String(card.Confirmation.ConversationID)}))
		if more[0].ConversationID != card.Confirmation.ConversationID {
			t.Fatalf("a new conversation: %+v", more[0])
		}
	})

	t.Run("an error event is an event, not Err", func(t *testing.T) {
		fake.script(t, map[string]interface{}{"toolCalls": []interface{}{map[string]interface{}{"name": "list_leads", "args": map[string]interface{}{}}}},
			map[string]interface{}{"status": 503})
		events := collect(t, client.Assistant.Ask(ctx, "List, then fail", nil))
		if last := events[len(events)-1]; last.Type != "error" || last.Code != "assistant_provider_unavailable" {
			t.Fatalf("last %+v", last)
		}
	})

	t.Run("Close ends the stream early", func(t *testing.T) {
		fake.script(t, map[string]interface{}{"text": "A long answer in several pieces, more than one."})
		stream := client.Assistant.Ask(ctx, "Talk", nil)
		if !stream.Next() || stream.Event().Type != "conversation" {
			t.Fatalf("first event: %v", stream.Err())
		}
		stream.Close()
		if stream.Next() || stream.Err() != nil {
			t.Fatalf("Next after Close: err %v", stream.Err())
		}
	})

	t.Run("events arrive as made; Timeout is the wait between them", func(t *testing.T) {
		impatient := crm.NewClient(sb.APIKey, &crm.Options{BaseURL: sb.BaseURL, Timeout: 2 * time.Second})
		fake.script(t, map[string]interface{}{"text": "Let me look.", "toolCalls": []interface{}{map[string]interface{}{"name": "list_leads", "args": map[string]interface{}{}}}},
			map[string]interface{}{"hang": true})
		stream := impatient.Assistant.Ask(ctx, "List, then think forever", nil)
		defer stream.Close()
		var seen []string
		for stream.Next() {
			seen = append(seen, stream.Event().Type)
		}
		if e := kindOf(t, stream.Err()); e.Kind != crm.ErrConnection || fmt.Sprint(seen) != "[conversation text tool_call tool_result]" {
			t.Fatalf("err %v after %v", e, seen)
		}
	})

	t.Run("without a provider: a 503 *crm.Error before any event", func(t *testing.T) {
		bare := crm.NewClient(primary.APIKey, &crm.Options{BaseURL: primary.BaseURL, MaxRetries: crm.Int(0)})
		stream := bare.Assistant.Ask(ctx, "Hello?", nil)
		defer stream.Close()
		if stream.Next() {
			t.Fatalf("an event: %+v", stream.Event())
		}
		e := kindOf(t, stream.Err())
		if e.Status != 503 || e.Code != "assistant_not_configured" || !errors.Is(stream.Err(), crm.ErrAPI) {
			t.Fatalf("error %+v", e)
		}
	})
}
