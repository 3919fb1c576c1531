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
	resp, _, err := b.send(ctx, method, path, query, body, opts, false)
	return resp, err
}

// send runs the attempts of one request. With stream, a 2xx answer's body is left open (openBody)
// for the caller to read and close; every other answer is read whole.
func (b *backend) send(ctx context.Context, method, path string, query url.Values, body interface{}, opts *RequestOptions, stream bool) (*APIResponse, *openBody, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	apiKey := b.apiKey
	if opts.APIKey != "" {
		apiKey = opts.APIKey
	}
	if apiKey == "" {
		return nil, nil, &Error{Kind: ErrAuthentication, Message: "crm: no API key: pass one to crm.NewClient or set CRM_API_KEY"}
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
			return nil, nil, &Error{Kind: ErrValidation, Message: "crm: the request body cannot be encoded: " + err.Error(), Err: err}
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

	req := request{method: method, target: target, payload: payload, apiKey: apiKey, idempotencyKey: idempotencyKey, headers: opts.Headers, stream: stream}
	for attempt := 0; ; attempt++ {
		resp, open, err := b.attempt(ctx, req, timeout)
		if err == nil && resp.StatusCode < 300 {
			return resp, open, nil
		}
		if err == nil {
			err = errorFromResponse(resp)
		}
		if ctx.Err() != nil || attempt >= maxRetries || !shouldRetry(err) {
			return nil, nil, err
		}
		wait := retryDelay(attempt, err)
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, nil, &Error{Kind: ErrConnection, Message: "crm: " + ctx.Err().Error(), Err: ctx.Err()}
		case <-timer.C:
		}
	}
}

// request is what each attempt sends.
type request struct {
	method, target         string
	payload                []byte
	apiKey, idempotencyKey string
	headers                http.Header
	stream                 bool
}

// openBody is a 2xx stream's body, read as it arrives. Its timeout is restarted on each read
// (touch), so that it bounds the wait between two events, not the whole stream.
type openBody struct {
	body    io.ReadCloser
	timer   *time.Timer
	cancel  context.CancelFunc
	timeout time.Duration
}

func (o *openBody) touch() { o.timer.Reset(o.timeout) }

func (o *openBody) close() {
	o.timer.Stop()
	o.cancel()
	_ = o.body.Close()
}

// attempt sends the request once. A transport failure is an *Error of kind ErrConnection.
func (b *backend) attempt(parent context.Context, r request, timeout time.Duration) (*APIResponse, *openBody, error) {
	ctx, cancel := context.WithCancel(parent)
	timer := time.AfterFunc(timeout, cancel)
	keepOpen := false
	defer func() {
		if !keepOpen {
			timer.Stop()
			cancel()
		}
	}()
	method, target, payload := r.method, r.target, r.payload
	var reader io.Reader
	if payload != nil {
		reader = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return nil, nil, &Error{Kind: ErrConnection, Message: "crm: " + err.Error(), Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+r.apiKey)
	if r.stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("User-Agent", b.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", r.idempotencyKey)
	}
	for k, vs := range r.headers {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	res, err := b.httpClient.Do(req)
	if err != nil {
		return nil, nil, &Error{Kind: ErrConnection, Message: "crm: " + method + " " + target + ": " + timedOut(parent, ctx, err), Err: err}
	}
	if r.stream && res.StatusCode < 300 {
		keepOpen = true
		return newAPIResponse(res, nil), &openBody{body: res.Body, timer: timer, cancel: cancel, timeout: timeout}, nil
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, &Error{Kind: ErrConnection, Message: "crm: reading the response: " + timedOut(parent, ctx, err), Err: err}
	}
	return newAPIResponse(res, raw), nil, nil
}

// timedOut says "timed out" when the attempt's own timeout ended it (not the caller's context).
func timedOut(parent, attempt context.Context, err error) string {
	if attempt.Err() != nil && parent.Err() == nil {
		return "timed out (the client's Timeout): " + err.Error()
	}
	return err.Error()
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
