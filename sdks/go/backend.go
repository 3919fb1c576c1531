package crm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"time"
)

// backend sends requests: authentication, idempotency keys, retries, decoding and errors.
type backend struct {
	apiKey     string
	baseURL    string
	maxRetries int
	timeout    time.Duration
	httpClient *http.Client
	userAgent  string
}

// lastResponseSetter is implemented by every model (through APIResource).
type lastResponseSetter interface {
	SetLastResponse(*APIResponse)
}

// call sends one API request and decodes a 2xx body into out (which may be nil).
func (b *backend) call(ctx context.Context, method, path string, query url.Values, body interface{}, opts []*RequestOptions, out interface{}) error {
	resp, err := b.do(ctx, method, path, query, body, mergeOptions(opts))
	if err != nil {
		return err
	}
	if out != nil && len(resp.RawBody) > 0 {
		if err := json.Unmarshal(resp.RawBody, out); err != nil {
			return &Error{Kind: ErrAPI, Status: resp.StatusCode, RequestID: resp.RequestID, Header: resp.Header, RawBody: resp.RawBody,
				Message: "crm: the response is not the JSON expected: " + err.Error(), Err: err}
		}
	}
	if setter, ok := out.(lastResponseSetter); ok {
		setter.SetLastResponse(resp)
	}
	return nil
}

func mergeOptions(opts []*RequestOptions) *RequestOptions {
	merged := &RequestOptions{}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.IdempotencyKey != "" {
			merged.IdempotencyKey = o.IdempotencyKey
		}
		if o.APIKey != "" {
			merged.APIKey = o.APIKey
		}
		if o.MaxRetries != nil {
			merged.MaxRetries = o.MaxRetries
		}
		if o.Timeout > 0 {
			merged.Timeout = o.Timeout
		}
		for k, vs := range o.Headers {
			if merged.Headers == nil {
				merged.Headers = http.Header{}
			}
			merged.Headers[k] = append([]string(nil), vs...)
		}
	}
	return merged
}

func isWrite(method string) bool {
	return method == http.MethodPost || method == http.MethodPatch || method == http.MethodDelete
}

// do runs the attempts of one request and returns the final 2xx response, or an *Error.
func (b *backend) do(ctx context.Context, method, path string, query url.Values, body interface{}, opts *RequestOptions) (*APIResponse, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	apiKey := b.apiKey
	if opts.APIKey != "" {
		apiKey = opts.APIKey
	}
	if apiKey == "" {
		return nil, &Error{Kind: ErrAuthentication, Message: "crm: no API key: pass one to crm.NewClient or set CRM_API_KEY"}
	}
	maxRetries := b.maxRetries
	if opts.MaxRetries != nil {
		maxRetries = *opts.MaxRetries
	}
	timeout := b.timeout
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	var payload []byte
	if isNilPointer(body) {
		// Optional params left nil: an empty JSON object, never `null`.
		payload = []byte("{}")
	} else if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, &Error{Kind: ErrValidation, Message: "crm: the request body cannot be encoded: " + err.Error(), Err: err}
		}
	}
	target := b.baseURL + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	idempotencyKey := ""
	if isWrite(method) {
		idempotencyKey = opts.IdempotencyKey
		if idempotencyKey == "" {
			idempotencyKey = newUUID()
		}
	}

	for attempt := 0; ; attempt++ {
		resp, err := b.attempt(ctx, method, target, payload, apiKey, idempotencyKey, timeout, opts.Headers)
		if err == nil && resp.StatusCode < 300 {
			return resp, nil
		}
		if err == nil {
			err = errorFromResponse(resp)
		}
		if ctx.Err() != nil || attempt >= maxRetries || !shouldRetry(err) {
			return nil, err
		}
		wait := retryDelay(attempt, err)
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, &Error{Kind: ErrConnection, Message: "crm: " + ctx.Err().Error(), Err: ctx.Err()}
		case <-timer.C:
		}
	}
}

// attempt sends the request once. A transport failure is an *Error of kind ErrConnection.
func (b *backend) attempt(ctx context.Context, method, target string, payload []byte, apiKey, idempotencyKey string, timeout time.Duration, extra http.Header) (*APIResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var reader io.Reader
	if payload != nil {
		reader = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return nil, &Error{Kind: ErrConnection, Message: "crm: " + err.Error(), Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", b.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	for k, vs := range extra {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	res, err := b.httpClient.Do(req)
	if err != nil {
		return nil, &Error{Kind: ErrConnection, Message: "crm: " + method + " " + target + ": " + err.Error(), Err: err}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, &Error{Kind: ErrConnection, Message: "crm: reading the response: " + err.Error(), Err: err}
	}
	return newAPIResponse(res, raw), nil
}

// shouldRetry: network errors, 408, 409 idempotency_key_in_use, 429 and 5xx.
func shouldRetry(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch {
	case e.Kind == ErrConnection:
		return true
	case e.Status == http.StatusRequestTimeout, e.Status == http.StatusTooManyRequests, e.Status >= 500:
		return true
	case e.Status == http.StatusConflict && e.Code == "idempotency_key_in_use":
		return true
	}
	return false
}

// retryDelay honours Retry-After (up to a minute), else backs off exponentially from 0.5 s to 8 s
// with up to 25% jitter, so that many clients do not retry in step.
func retryDelay(attempt int, err error) time.Duration {
	var e *Error
	if errors.As(err, &e) && e.Header != nil {
		if d, ok := parseRetryAfter(e.Header.Get("Retry-After")); ok && d <= time.Minute {
			return d
		}
	}
	delay := 500 * time.Millisecond << uint(attempt)
	if delay > 8*time.Second || delay <= 0 {
		delay = 8 * time.Second
	}
	jitter := 1 - 0.25*randomFraction()
	return time.Duration(float64(delay) * jitter)
}

func parseRetryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	var seconds float64
	if _, err := fmt.Sscanf(v, "%g", &seconds); err == nil && seconds >= 0 {
		return time.Duration(seconds * float64(time.Second)), true
	}
	if at, err := http.ParseTime(v); err == nil {
		d := time.Until(at)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

func randomFraction() float64 {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return float64(int(b[0])<<8|int(b[1])) / 65536
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic("crm: no randomness for an idempotency key: " + err.Error())
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func isNilPointer(v interface{}) bool {
	r := reflect.ValueOf(v)
	return v != nil && r.Kind() == reflect.Ptr && r.IsNil()
}

// pathEscape escapes one path segment (an id).
func pathEscape(s string) string { return url.PathEscape(s) }
