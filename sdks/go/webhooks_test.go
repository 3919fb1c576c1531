package crm_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

type delivery struct {
	header http.Header
	body   []byte
}

// receiver is a real HTTP endpoint the sandbox delivers webhooks to.
func receiver(t *testing.T) (*httptest.Server, chan delivery) {
	received := make(chan delivery, 20)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		received <- delivery{r.Header.Clone(), body}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(server.Close)
	return server, received
}

func waitFor(t *testing.T, received chan delivery, eventType string, secret string) *crm.Event {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case d := <-received:
			event, err := crm.VerifyWebhook(secret, d.header, d.body)
			if err != nil {
				t.Fatalf("a delivery does not verify: %v", err)
			}
			if event.Type == eventType {
				return event
			}
		case <-deadline:
			t.Fatalf("no %s delivery within 30 s", eventType)
		}
	}
}

func TestWebhookEndpointsDeliverSignedEvents(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	server, received := receiver(t)
	endpoint, err := client.WebhookEndpoints.Create(ctx, &crm.WebhookEndpointCreateParams{
		URL: server.URL + "/hooks", EnabledEvents: []string{"lead.created"}, Description: crm.String("go sdk test"),
	})
	must(t, err)
	defer client.WebhookEndpoints.Delete(ctx, endpoint.ID)
	if endpoint.Secret == "" || endpoint.Status != crm.WebhookEndpointStatusEnabled {
		t.Fatalf("created %+v", endpoint)
	}

	lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("Hooked")})
	must(t, err)
	event := waitFor(t, received, "lead.created", endpoint.Secret)
	if event.Data.Object["id"] != lead.ID {
		t.Fatalf("the event is about %v, want %s", event.Data.Object["id"], lead.ID)
	}

	got, err := client.Events.Retrieve(ctx, event.ID)
	must(t, err)
	if got.Type != crm.EventTypeLeadCreated {
		t.Fatalf("event retrieved %+v", got)
	}
	found := false
	events := client.Events.List(ctx, &crm.EventListParams{Type: crm.String("lead.created"), Limit: crm.Int(100)})
	for events.Next() && !found {
		found = events.Event().ID == event.ID
	}
	must(t, events.Err())
	if !found {
		t.Fatalf("event %s not in the list", event.ID)
	}

	// Resend, then the delivery list shows it was sent again.
	resent, err := client.Events.Resend(ctx, event.ID, &crm.EventResendParams{EndpointID: crm.String(endpoint.ID)})
	must(t, err)
	if resent.EventID != event.ID || len(resent.Deliveries) != 1 {
		t.Fatalf("resent %+v", resent)
	}
	again := waitFor(t, received, "lead.created", endpoint.Secret)
	if again.ID != event.ID {
		t.Fatalf("resent delivery is %s, want %s", again.ID, event.ID)
	}
	deliveries := client.WebhookEndpoints.ListDeliveries(ctx, endpoint.ID, &crm.WebhookEndpointListDeliveriesParams{EventID: crm.String(event.ID)})
	count := 0
	for deliveries.Next() {
		count++
	}
	must(t, deliveries.Err())
	if count < 2 {
		t.Fatalf("%d deliveries of the event, want at least 2", count)
	}

	// Rotate: the new secret verifies the next delivery (both secrets sign during the overlap).
	rotated, err := client.WebhookEndpoints.RotateSecret(ctx, endpoint.ID, nil)
	must(t, err)
	if rotated.Secret == endpoint.Secret || rotated.PreviousSecretExpiresAt == nil {
		t.Fatalf("rotated %+v", rotated)
	}
	// A leaked secret: rotate again and stop the old one (and the overlapping one) at once.
	rotated, err = client.WebhookEndpoints.RotateSecret(ctx, endpoint.ID, &crm.WebhookSecretRotateParams{ExpireOld: crm.Bool(true)})
	must(t, err)
	if rotated.PreviousSecretExpiresAt != nil {
		t.Fatalf("rotated with ExpireOld: %+v", rotated)
	}
	_, err = client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("Rotated")})
	must(t, err)
	waitFor(t, received, "lead.created", rotated.Secret)

	recovered, err := client.WebhookEndpoints.Recover(ctx, endpoint.ID, &crm.WebhookRecoverParams{Since: time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)})
	must(t, err)
	if recovered.EndpointID != endpoint.ID || recovered.Requeued != 0 {
		t.Fatalf("recovered %+v (no delivery failed)", recovered)
	}
}

func TestWebhookEndpointsCRUD(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	endpoint, err := client.WebhookEndpoints.Create(ctx, &crm.WebhookEndpointCreateParams{URL: "http://127.0.0.1:9/never"})
	must(t, err)
	got, err := client.WebhookEndpoints.Retrieve(ctx, endpoint.ID)
	must(t, err)
	if got.URL != "http://127.0.0.1:9/never" || len(got.EnabledEvents) != 1 || got.EnabledEvents[0] != "*" {
		t.Fatalf("retrieved %+v", got)
	}
	updated, err := client.WebhookEndpoints.Update(ctx, endpoint.ID, &crm.WebhookEndpointUpdateParams{Status: crm.String("disabled")})
	must(t, err)
	if updated.Status != crm.WebhookEndpointStatusDisabled {
		t.Fatalf("updated %+v", updated)
	}
	found := false
	it := client.WebhookEndpoints.List(ctx, nil)
	for it.Next() {
		found = found || it.WebhookEndpoint().ID == endpoint.ID
	}
	must(t, it.Err())
	if !found {
		t.Fatal("the endpoint is not listed")
	}
	deleted, err := client.WebhookEndpoints.Delete(ctx, endpoint.ID)
	must(t, err)
	if !deleted.Deleted {
		t.Fatalf("deleted %+v", deleted)
	}
}
