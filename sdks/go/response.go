package crm

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// APIResponse is the last HTTP response behind a returned object: obj.LastResponse.
type APIResponse struct {
	StatusCode int
	Header     http.Header
	// RequestID is the response's X-Request-Id (req_…), to quote when asking about a request.
	RequestID string
	// IdempotentReplayed is true when the server answered a repeated Idempotency-Key from its store.
	IdempotentReplayed bool
	// RateLimitLimit, RateLimitRemaining and RateLimitReset (seconds) are the X-RateLimit-* fields;
	// -1 when the response had none.
	RateLimitLimit     int
	RateLimitRemaining int
	RateLimitReset     int
	// RawBody is the response body as received.
	RawBody []byte
}

func newAPIResponse(res *http.Response, raw []byte) *APIResponse {
	return &APIResponse{
		StatusCode:         res.StatusCode,
		Header:             res.Header,
		RequestID:          res.Header.Get("X-Request-Id"),
		IdempotentReplayed: strings.EqualFold(res.Header.Get("Idempotent-Replayed"), "true"),
		RateLimitLimit:     headerInt(res.Header, "X-RateLimit-Limit"),
		RateLimitRemaining: headerInt(res.Header, "X-RateLimit-Remaining"),
		RateLimitReset:     headerInt(res.Header, "X-RateLimit-Reset"),
		RawBody:            raw,
	}
}

func headerInt(h http.Header, name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(h.Get(name)))
	if err != nil {
		return -1
	}
	return n
}

// APIResource is embedded in every model, so that each returned object carries its LastResponse.
type APIResource struct {
	LastResponse *APIResponse `json:"-"`
}

// SetLastResponse records the response an object came from.
func (r *APIResource) SetLastResponse(resp *APIResponse) { r.LastResponse = resp }

// RawRequest reaches any endpoint with the client's authentication, idempotency and retries.
// path is absolute ("/v1/leads?limit=5"); body (any JSON-encodable value) may be nil. A non-2xx answer
// is an *Error; a 2xx one is returned with its RawBody for you to decode.
func (c *API) RawRequest(ctx context.Context, method, path string, body interface{}, opts ...*RequestOptions) (*APIResponse, error) {
	var query url.Values
	if i := strings.IndexByte(path, '?'); i >= 0 {
		parsed, err := url.ParseQuery(path[i+1:])
		if err != nil {
			return nil, &Error{Kind: ErrValidation, Message: "crm: bad query in path: " + err.Error(), Err: err}
		}
		path, query = path[:i], parsed
	}
	return c.backend.do(ctx, strings.ToUpper(method), path, query, body, mergeOptions(opts))
}
