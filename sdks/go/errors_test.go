package crm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

// Each error family, produced by a real answer of the sandbox.
func TestErrorFamilies(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	noRetry := &crm.RequestOptions{MaxRetries: crm.Int(0)}

	t.Run("authentication", func(t *testing.T) {
		_, err := client.Leads.Retrieve(ctx, "lead_x", &crm.RequestOptions{APIKey: "crm_test_wrong"})
		e := kindOf(t, err)
		if e.Kind != crm.ErrAuthentication || e.Status != 401 || e.Code != "unauthenticated" || e.RequestID == "" || !errors.Is(err, crm.ErrAuthentication) {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("permission", func(t *testing.T) {
		key, err := client.APIKeys.Create(ctx, &crm.APIKeyCreateParams{Name: "read only", Scopes: []string{"leads:read"}})
		must(t, err)
		_, err = client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("x")}, &crm.RequestOptions{APIKey: key.Secret})
		if e := kindOf(t, err); e.Kind != crm.ErrPermission || e.Code != "insufficient_scope" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("not found", func(t *testing.T) {
		_, err := client.Deals.Retrieve(ctx, "deal_doesnotexist")
		if e := kindOf(t, err); e.Kind != crm.ErrNotFound || e.Status != 404 || len(e.RawBody) == 0 {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("conflict", func(t *testing.T) {
		deal, err := client.Deals.Create(ctx, &crm.DealCreateParams{Title: "t", Value: 1, Currency: "EUR", Stage: crm.StageWon})
		must(t, err)
		_, err = client.Deals.Lose(ctx, deal.ID, nil)
		if e := kindOf(t, err); e.Kind != crm.ErrConflict || e.Code != "invalid_transition" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("idempotency", func(t *testing.T) {
		key := unique("reuse-")
		_, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("one")}, &crm.RequestOptions{IdempotencyKey: key})
		must(t, err)
		_, err = client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("two")}, &crm.RequestOptions{IdempotencyKey: key})
		if e := kindOf(t, err); e.Kind != crm.ErrIdempotency || e.Code != "idempotency_key_reused" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("validation", func(t *testing.T) {
		_, err := client.Leads.Create(ctx, &crm.LeadCreateParams{Email: crm.String("not-an-email")})
		e := kindOf(t, err)
		if e.Kind != crm.ErrValidation || e.Status != 422 || len(e.Errors) == 0 || e.Errors[0].Path != "email" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("rate limit", func(t *testing.T) {
		limitedClient := crm.NewClient(limited.APIKey, &crm.Options{BaseURL: limited.BaseURL, MaxRetries: crm.Int(0)})
		var err error
		for i := 0; i < 20 && err == nil; i++ {
			_, err = limitedClient.Usage.Retrieve(ctx, nil)
		}
		e := kindOf(t, err)
		if e.Kind != crm.ErrRateLimit || e.Status != 429 || e.RetryAfter <= 0 || e.RetryAfter > 2*time.Second {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("api error", func(t *testing.T) {
		armFault(t, "GET", "/v1/invoices", 500, 1)
		it := client.Invoices.List(ctx, nil, noRetry)
		if it.Next() {
			t.Fatal("a page came despite the fault")
		}
		if e := kindOf(t, it.Err()); e.Kind != crm.ErrAPI || e.Status != 500 || e.Code != "internal_error" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("connection", func(t *testing.T) {
		dead := crm.NewClient("crm_test_x", &crm.Options{BaseURL: "http://127.0.0.1:9", MaxRetries: crm.Int(0)})
		_, err := dead.Leads.Retrieve(ctx, "lead_x")
		if e := kindOf(t, err); e.Kind != crm.ErrConnection || e.Status != 0 || e.Err == nil {
			t.Fatalf("%+v", e)
		}
	})
}
