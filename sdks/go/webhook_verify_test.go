package crm_test

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func signedHeader(t *testing.T, secret, id string, at time.Time, body []byte) http.Header {
	t.Helper()
	sig, err := crm.SignWebhook(secret, id, at.Unix(), body)
	must(t, err)
	h := http.Header{}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	h.Set("webhook-signature", sig)
	return h
}

func TestVerifyWebhook(t *testing.T) {
	body := []byte(`{"id":"evt_1","type":"lead.created","created_at":"2026-11-21T12:00:00.000Z","data":{"object":{"id":"lead_1"}}}`)
	now := time.Now()
	event, err := crm.VerifyWebhook(testSecret, signedHeader(t, testSecret, "evt_1", now, body), body)
	must(t, err)
	if event.ID != "evt_1" || event.Type != "lead.created" || event.Data.Object["id"] != "lead_1" {
		t.Fatalf("event %+v", event)
	}

	// During a rotation the header lists two signatures; either secret verifies.
	other := "whsec_" + "dGhpcyBpcyBhbm90aGVyIHNlY3JldCBrZXkhIQ=="
	h := signedHeader(t, testSecret, "evt_1", now, body)
	second, _ := crm.SignWebhook(other, "evt_1", now.Unix(), body)
	h.Set("webhook-signature", h.Get("webhook-signature")+" "+second)
	if _, err := crm.VerifyWebhook(other, h, body); err != nil {
		t.Fatalf("the second listed signature: %v", err)
	}

	failures := map[string]func() (http.Header, []byte){
		"wrong secret": func() (http.Header, []byte) { return signedHeader(t, other, "evt_1", now, body), body },
		"tampered body": func() (http.Header, []byte) {
			return signedHeader(t, testSecret, "evt_1", now, body), append([]byte(" "), body...)
		},
		"other id": func() (http.Header, []byte) {
			h := signedHeader(t, testSecret, "evt_1", now, body)
			h.Set("webhook-id", "evt_2")
			return h, body
		},
		"too old": func() (http.Header, []byte) {
			return signedHeader(t, testSecret, "evt_1", now.Add(-6*time.Minute), body), body
		},
		"too far ahead": func() (http.Header, []byte) {
			return signedHeader(t, testSecret, "evt_1", now.Add(6*time.Minute), body), body
		},
		"missing headers": func() (http.Header, []byte) { return http.Header{}, body },
		"other version": func() (http.Header, []byte) {
			h := signedHeader(t, testSecret, "evt_1", now, body)
			h.Set("webhook-signature", "v2,"+h.Get("webhook-signature")[3:])
			return h, body
		},
	}
	for name, make := range failures {
		header, payload := make()
		_, err := crm.VerifyWebhook(testSecret, header, payload)
		if !errors.Is(err, crm.ErrSignatureVerification) {
			t.Errorf("%s: got %v, want a signature verification error", name, err)
		}
	}
}
