package crm

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WebhookTolerance is how far a webhook's timestamp may be from now (replay protection).
const WebhookTolerance = 5 * time.Minute

// VerifyWebhook checks a Standard Webhooks signature (webhook-id, webhook-timestamp,
// webhook-signature headers) against the raw body and returns the event. Any of the listed v1
// signatures may match (during a secret rotation there are two). Failures are *Error of kind
// ErrSignatureVerification.
func VerifyWebhook(secret string, header http.Header, body []byte) (*Event, error) {
	return VerifyWebhookAt(secret, header, body, time.Now())
}

// VerifyWebhookAt is VerifyWebhook with the current time given (for tests and replays).
func VerifyWebhookAt(secret string, header http.Header, body []byte, now time.Time) (*Event, error) {
	id, ts, sigs := header.Get("Webhook-Id"), header.Get("Webhook-Timestamp"), header.Get("Webhook-Signature")
	if id == "" || ts == "" || sigs == "" {
		return nil, signatureError("missing webhook-id, webhook-timestamp or webhook-signature header")
	}
	seconds, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	if err != nil {
		return nil, signatureError("the webhook-timestamp header is not a number of seconds")
	}
	sent := time.Unix(seconds, 0)
	if now.Sub(sent) > WebhookTolerance {
		return nil, signatureError("the webhook timestamp is too old")
	}
	if sent.Sub(now) > WebhookTolerance {
		return nil, signatureError("the webhook timestamp is too far in the future")
	}
	expected, err := webhookMAC(secret, id, seconds, body)
	if err != nil {
		return nil, err
	}
	matched := false
	for _, candidate := range strings.Fields(sigs) {
		version, value, ok := strings.Cut(candidate, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err == nil && subtle.ConstantTimeCompare(got, expected) == 1 {
			matched = true
		}
	}
	if !matched {
		return nil, signatureError("no signature matches the secret and body")
	}
	event := &Event{}
	if err := json.Unmarshal(body, event); err != nil {
		return nil, signatureError("the signed body is not an event: " + err.Error())
	}
	return event, nil
}

// SignWebhook makes the webhook-signature header value ("v1,<base64>") for a body, as the sandbox
// does; useful to test your own webhook handler.
func SignWebhook(secret, id string, timestamp int64, body []byte) (string, error) {
	mac, err := webhookMAC(secret, id, timestamp, body)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(mac), nil
}

func webhookMAC(secret, id string, timestamp int64, body []byte) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil, signatureError("the webhook secret is not whsec_ followed by base64")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return mac.Sum(nil), nil
}

func signatureError(message string) *Error {
	return &Error{Kind: ErrSignatureVerification, Message: "crm: " + message}
}
