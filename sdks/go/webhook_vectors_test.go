package crm_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

// The shared test vectors of the four SDKs (sdks/test-vectors/webhooks.json).
func TestWebhookSharedVectors(t *testing.T) {
	raw, err := os.ReadFile("../test-vectors/webhooks.json")
	must(t, err)
	var vectors struct {
		Cases []struct {
			Name      string `json:"name"`
			Secret    string `json:"secret"`
			ID        string `json:"id"`
			Timestamp int64  `json:"timestamp"`
			Now       int64  `json:"now"`
			Body      string `json:"body"`
			Signature string `json:"signature"`
			Valid     bool   `json:"valid"`
		} `json:"cases"`
	}
	must(t, json.Unmarshal(raw, &vectors))
	if len(vectors.Cases) < 10 {
		t.Fatalf("only %d vectors", len(vectors.Cases))
	}
	for _, v := range vectors.Cases {
		h := http.Header{}
		h.Set("webhook-id", v.ID)
		h.Set("webhook-timestamp", strconv.FormatInt(v.Timestamp, 10))
		h.Set("webhook-signature", v.Signature)
		event, err := crm.VerifyWebhookAt(v.Secret, h, []byte(v.Body), time.Unix(v.Now, 0))
		if v.Valid {
			if err != nil || event.ID != v.ID {
				t.Errorf("%s: want valid, got %v", v.Name, err)
			}
			continue
		}
		var e *crm.Error
		if !errors.As(err, &e) || !errors.Is(err, crm.ErrSignatureVerification) {
			t.Errorf("%s: want a signature error, got %v", v.Name, err)
		}
	}
}
