package crm

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// ErrorKind is the family of an *Error. Kinds are errors themselves, so both
// `errors.Is(err, crm.ErrNotFound)` and `e.Kind == crm.ErrNotFound` work.
type ErrorKind string

// The error families of docs/sdk-surface.md#errors.
const (
	ErrAuthentication        ErrorKind = "authentication_error" // 401
	ErrPermission            ErrorKind = "permission_error"     // 403
	ErrNotFound              ErrorKind = "not_found_error"      // 404
	ErrConflict              ErrorKind = "conflict_error"       // 409, incl. invalid_transition
	ErrIdempotency           ErrorKind = "idempotency_error"    // idempotency_key_*
	ErrValidation            ErrorKind = "validation_error"     // 400, 422
	ErrRateLimit             ErrorKind = "rate_limit_error"     // 429 (see Error.RetryAfter)
	ErrPlanLimit             ErrorKind = "plan_limit_error"     // 402
	ErrAPI                   ErrorKind = "api_error"            // 5xx, and any other status
	ErrConnection            ErrorKind = "connection_error"     // no response
	ErrSignatureVerification ErrorKind = "signature_verification_error"
)

func (k ErrorKind) Error() string { return "crm: " + string(k) }

// FieldError is one validation detail of a 400/422 answer.
type FieldError struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error is every failure the SDK returns. Match it with errors.As(err, &e) or its family with
// errors.Is(err, crm.ErrNotFound).
type Error struct {
	Kind ErrorKind
	// Status is the HTTP status; 0 when no response came.
	Status int
	// Code is the API's error code (validation_failed, invalid_transition, …).
	Code      string
	Message   string
	RequestID string
	// Type and Title are the RFC 9457 fields of the problem.
	Type   string
	Title  string
	Errors []FieldError
	// RetryAfter is the server's Retry-After of a 429 (0 when absent).
	RetryAfter time.Duration
	Header     http.Header
	RawBody    []byte
	// Err is the underlying error of a connection failure.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Code != "" {
		b.WriteString(" (" + e.Code + ")")
	}
	if e.RequestID != "" {
		b.WriteString(" [" + e.RequestID + "]")
	}
	return b.String()
}

// Unwrap gives the underlying error of a connection failure.
func (e *Error) Unwrap() error { return e.Err }

// Is matches an ErrorKind: errors.Is(err, crm.ErrRateLimit).
func (e *Error) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

type problem struct {
	Type      string       `json:"type"`
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail"`
	Code      string       `json:"code"`
	RequestID string       `json:"request_id"`
	Errors    []FieldError `json:"errors"`
}

func errorFromResponse(resp *APIResponse) *Error {
	var p problem
	_ = json.Unmarshal(resp.RawBody, &p)
	e := &Error{
		Status: resp.StatusCode, Code: p.Code, Message: p.Detail, RequestID: p.RequestID, Type: p.Type, Title: p.Title,
		Errors: p.Errors, Header: resp.Header, RawBody: resp.RawBody,
	}
	if e.RequestID == "" {
		e.RequestID = resp.RequestID
	}
	if e.Message == "" {
		e.Message = p.Title
	}
	if e.Message == "" {
		e.Message = "HTTP " + http.StatusText(resp.StatusCode)
	}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After")); ok {
		e.RetryAfter = d
	}
	e.Kind = kindOf(e.Status, e.Code)
	return e
}

func kindOf(status int, code string) ErrorKind {
	switch {
	case strings.HasPrefix(code, "idempotency_key_"):
		return ErrIdempotency
	case status == 401:
		return ErrAuthentication
	case status == 402:
		return ErrPlanLimit
	case status == 403:
		return ErrPermission
	case status == 404:
		return ErrNotFound
	case status == 409:
		return ErrConflict
	case status == 400, status == 422:
		return ErrValidation
	case status == 429:
		return ErrRateLimit
	}
	return ErrAPI
}
