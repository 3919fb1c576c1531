package crm_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"runtime"
	"sync"
	"testing"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

// recorder is a real transport that notes what each attempt sent.
type recorder struct {
	mu      sync.Mutex
	keys    []string
	agents  []string
	methods []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.keys = append(r.keys, req.Header.Get("Idempotency-Key"))
	r.agents = append(r.agents, req.Header.Get("User-Agent"))
	r.methods = append(r.methods, req.Method)
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// A write that fails twice with 503 is retried with the same Idempotency-Key, and the server
// writes it once: one lead, one lead.created event.
func TestRetriedWriteIsSeenOnce(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	client := crm.NewClient(primary.APIKey, &crm.Options{BaseURL: primary.BaseURL, HTTPClient: &http.Client{Transport: rec}})
	armFault(t, "POST", "/v1/leads", 503, 2)
	email := unique("retry") + "@example.com"
	lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{Email: crm.String(email)})
	must(t, err)

	if len(rec.keys) != 3 || rec.keys[0] != rec.keys[1] || rec.keys[1] != rec.keys[2] || !uuidV4.MatchString(rec.keys[0]) {
		t.Fatalf("attempts sent the keys %q, want one UUID v4 three times", rec.keys)
	}
	want := "crm-sdk-go/" + crm.Version + " (" + runtime.Version() + ")"
	if rec.agents[0] != want {
		t.Fatalf("User-Agent %q, want %q", rec.agents[0], want)
	}
	leads := 0
	it := client.Leads.List(ctx, &crm.LeadListParams{Email: crm.String(email)})
	for it.Next() {
		leads++
	}
	must(t, it.Err())
	events := 0
	evs := client.Events.List(ctx, &crm.EventListParams{Type: crm.String("lead.created"), Limit: crm.Int(1000)})
	for evs.Next() {
		if evs.Event().Data.Object["id"] == lead.ID {
			events++
		}
	}
	must(t, evs.Err())
	if leads != 1 || events != 1 {
		t.Fatalf("%d leads and %d lead.created events, want 1 and 1", leads, events)
	}
}

// Reads carry no Idempotency-Key; a caller's key is sent as given.
func TestIdempotencyKeyOnlyOnWrites(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{}
	client := crm.NewClient(primary.APIKey, &crm.Options{BaseURL: primary.BaseURL, HTTPClient: &http.Client{Transport: rec}})
	lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("k")}, &crm.RequestOptions{IdempotencyKey: "caller-key-" + unique("")})
	must(t, err)
	_, err = client.Leads.Retrieve(ctx, lead.ID)
	must(t, err)
	_, err = client.Leads.Delete(ctx, lead.ID)
	must(t, err)
	if rec.keys[0][:11] != "caller-key-" || rec.keys[1] != "" || !uuidV4.MatchString(rec.keys[2]) {
		t.Fatalf("keys %q for %v", rec.keys, rec.methods)
	}
}

// Under --rate-limit 2/1s a burst gets 429s, which the client waits out (Retry-After): every call succeeds.
func TestRateLimitIsWaitedOut(t *testing.T) {
	ctx := context.Background()
	client := crm.NewClient(limited.APIKey, &crm.Options{BaseURL: limited.BaseURL, MaxRetries: crm.Int(5)})
	for i := 0; i < 6; i++ {
		if _, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("burst")}); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	usage, err := client.Usage.Retrieve(ctx, nil)
	must(t, err)
	limitedAnswers := 0
	for _, s := range usage.ByStatus {
		if s.Status == 429 {
			limitedAnswers = s.Requests
		}
	}
	if limitedAnswers == 0 {
		t.Fatalf("the sandbox answered no 429 to the burst, so nothing was waited out: %+v", usage.ByStatus)
	}
}

// RawRequest reaches any endpoint, with the same errors.
func TestRawRequest(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	resp, err := client.RawRequest(ctx, "GET", "/v1/leads?limit=1", nil)
	must(t, err)
	var page struct {
		Data []map[string]interface{} `json:"data"`
	}
	must(t, json.Unmarshal(resp.RawBody, &page))
	if resp.StatusCode != 200 || len(page.Data) != 1 || resp.RequestID == "" {
		t.Fatalf("raw: %d %s", resp.StatusCode, resp.RawBody)
	}
	_, err = client.RawRequest(ctx, "GET", "/v1/nothing-here", nil)
	if e := kindOf(t, err); e.Kind != crm.ErrNotFound {
		t.Fatalf("%+v", e)
	}
}

func TestClientFallsBackToEnvironment(t *testing.T) {
	t.Setenv("CRM_API_KEY", primary.APIKey)
	t.Setenv("CRM_BASE_URL", primary.BaseURL)
	client := crm.NewClient("", nil)
	if client.BaseURL() != primary.BaseURL {
		t.Fatalf("base URL %s", client.BaseURL())
	}
	if _, err := client.Usage.Retrieve(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRM_API_KEY", "")
	_, err := crm.NewClient("", nil).Usage.Retrieve(context.Background(), nil)
	if e := kindOf(t, err); e.Kind != crm.ErrAuthentication || e.Status != 0 {
		t.Fatalf("without a key: %+v", e)
	}
}
