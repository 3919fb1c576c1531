// Package crm is the Go SDK of the crm API (its reference: docs/reference/README.md in the crm repository).
//
// The core (this file, backend.go, errors.go, iter.go, webhook.go, …) is written by hand; the resource
// services and models (*_gen.go) are generated from the OpenAPI document by `npm run sdk`.
package crm

import (
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"
)

// Version is the SDK's version, sent in the User-Agent.
const Version = "0.1.0"

// DefaultBaseURL is where `crm sandbox start` listens by default.
const DefaultBaseURL = "http://127.0.0.1:4010"

const (
	defaultMaxRetries = 2
	defaultTimeout    = 60 * time.Second
)

// Options configure a client. Every field is optional.
type Options struct {
	// BaseURL of the API, without /v1. Default: CRM_BASE_URL, else http://127.0.0.1:4010.
	BaseURL string
	// MaxRetries is how often a failed request is retried (default 2; crm.Int(0) turns retries off).
	MaxRetries *int
	// Timeout of each attempt (default 60 s).
	Timeout time.Duration
	// HTTPClient sends the requests (default: a client of its own; its Timeout is left alone).
	HTTPClient *http.Client
}

// API is a client of the crm API. Its fields are the resource services: client.Leads, client.Deals, …
// It is safe for concurrent use.
type API struct {
	services
	backend *backend
}

// NewClient makes a client. An empty apiKey falls back to CRM_API_KEY; opts may be nil.
func NewClient(apiKey string, opts *Options) *API {
	if opts == nil {
		opts = &Options{}
	}
	if apiKey == "" {
		apiKey = os.Getenv("CRM_API_KEY")
	}
	baseURL := opts.BaseURL
	if baseURL == "" {
		baseURL = os.Getenv("CRM_BASE_URL")
	}
	if baseURL == "" {
		baseURL = DefaultBaseURL
	}
	b := &backend{
		apiKey:     apiKey,
		baseURL:    strings.TrimRight(baseURL, "/"),
		maxRetries: defaultMaxRetries,
		timeout:    defaultTimeout,
		httpClient: opts.HTTPClient,
		userAgent:  "crm-sdk-go/" + Version + " (" + runtime.Version() + ")",
	}
	if opts.MaxRetries != nil {
		b.maxRetries = *opts.MaxRetries
	}
	if opts.Timeout > 0 {
		b.timeout = opts.Timeout
	}
	if b.httpClient == nil {
		b.httpClient = &http.Client{}
	}
	c := &API{backend: b}
	c.services.init(b)
	return c
}

// BaseURL is the base URL the client talks to.
func (c *API) BaseURL() string { return c.backend.baseURL }

// RequestOptions change one call. Pass nil (or nothing) for none.
type RequestOptions struct {
	// IdempotencyKey of a write (POST, PATCH, DELETE); by default a fresh UUID v4, kept across retries.
	IdempotencyKey string
	// APIKey for this call instead of the client's.
	APIKey string
	// MaxRetries for this call instead of the client's.
	MaxRetries *int
	// Timeout of each attempt of this call instead of the client's.
	Timeout time.Duration
	// Headers added to the request.
	Headers http.Header
}

// String returns a pointer to v, for optional fields of params.
func String(v string) *string { return &v }

// Float64 returns a pointer to v, for optional fields of params.
func Float64(v float64) *float64 { return &v }

// Int returns a pointer to v, for optional fields of params and options.
func Int(v int) *int { return &v }

// Bool returns a pointer to v, for optional fields of params.
func Bool(v bool) *bool { return &v }
