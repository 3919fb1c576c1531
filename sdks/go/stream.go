package crm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"strings"
)

// Stream is the events of a streamed method (client.Assistant.Ask), read as they arrive:
//
//	stream := client.Assistant.Ask(ctx, "Which deals close this month?", nil)
//	defer stream.Close()
//	for stream.Next() {
//		event := stream.Event()
//	}
//	if err := stream.Err(); err != nil { … }
//
// The request is sent by the first Next, so an error answer (problem+json: 503, 502, 404, …) is
// Err before any event. Each event is the JSON of its `data:` lines (its type in it, as the
// `event:` line repeats); an `error` event is an event
// like the others (the stream ends after it), not an Err. Close (or cancelling ctx) ends the HTTP
// response early. The client's Timeout bounds each wait for the server: between two events, not
// the whole stream.
type Stream[T any] struct {
	open    func() (*APIResponse, *openBody, error)
	body    *openBody
	events  *sseReader
	current *T
	err     error
	started bool
	closed  bool
	// LastResponse is the HTTP response, once the first Next has opened the stream.
	LastResponse *APIResponse
}

// newStream makes a stream of the method at path; nothing is sent before the first Next.
func newStream[T any](b *backend, ctx context.Context, method, path string, query url.Values, body interface{}, opts []*RequestOptions) *Stream[T] {
	return &Stream[T]{open: func() (*APIResponse, *openBody, error) {
		return b.send(ctx, method, path, query, body, mergeOptions(opts), true)
	}}
}

// Next moves to the next event; false at the end of the stream, on an error, or after Close.
func (s *Stream[T]) Next() bool {
	if s.closed || s.err != nil {
		return false
	}
	if !s.started {
		s.started = true
		resp, body, err := s.open()
		if err != nil {
			s.err = err
			return false
		}
		s.LastResponse, s.body = resp, body
		s.events = &sseReader{body: body.body, touch: body.touch}
	}
	message, err := s.events.next()
	if err != nil {
		if err != io.EOF {
			s.err = &Error{Kind: ErrConnection, Message: "crm: the stream stopped: " + err.Error(), Err: err}
		}
		s.Close()
		return false
	}
	var event T
	if err := json.Unmarshal([]byte(message.Data), &event); err != nil {
		s.err = &Error{Kind: ErrAPI, Message: "crm: an event is not the JSON expected (event: " + message.Event + "): " + err.Error(), Err: err}
		s.Close()
		return false
	}
	s.current = &event
	return true
}

// Event is the event Next moved to.
func (s *Stream[T]) Event() *T { return s.current }

// Err is the error that stopped the stream, if any (nil at its normal end).
func (s *Stream[T]) Err() error { return s.err }

// Close stops the HTTP response; Next returns false afterwards. It is safe to call more than once.
func (s *Stream[T]) Close() error {
	s.closed = true
	if s.body != nil {
		s.body.close()
		s.body = nil
	}
	return nil
}

// ServerSentEvent is one event as sent: `event:` (default "message"), its joined `data:` lines, `id:`.
type ServerSentEvent struct {
	Event string
	Data  string
	ID    string
}

// sseReader parses an event stream as the HTML standard says: lines end in CRLF, LF or CR; a
// blank line dispatches the event; `:` starts a comment (a heartbeat); `data:` lines join with a
// line feed; one space after the colon is dropped; an event cut off before its blank line is not
// dispatched.
type sseReader struct {
	body    io.Reader
	touch   func() // on each piece read: restarts the wait for the next
	buffer  []byte
	started bool
	eof     bool
	id      string
}

// next returns the next event with data, or io.EOF at the end of the body.
func (r *sseReader) next() (ServerSentEvent, error) {
	event := ""
	var data []string
	for {
		line, err := r.line()
		if err != nil {
			return ServerSentEvent{}, err
		}
		if line == "" {
			if len(data) > 0 { // no data (an id-only message, a lone event: line) dispatches nothing
				if event == "" {
					event = "message"
				}
				return ServerSentEvent{Event: event, Data: strings.Join(data, "\n"), ID: r.id}, nil
			}
			event = ""
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value := line, ""
		if colon := strings.IndexByte(line, ':'); colon >= 0 {
			field, value = line[:colon], strings.TrimPrefix(line[colon+1:], " ")
		}
		switch field {
		case "event":
			event = value
		case "data":
			data = append(data, value)
		case "id":
			if !strings.ContainsRune(value, 0) {
				r.id = value
			}
		}
	}
}

// line returns the next line without its end, reading more of the body when needed.
func (r *sseReader) line() (string, error) {
	for {
		// A CR last in the buffer may be the first half of a CRLF: read on, unless the body ended.
		if end := bytes.IndexAny(r.buffer, "\r\n"); end >= 0 && (r.eof || r.buffer[end] == '\n' || end < len(r.buffer)-1) {
			line := string(r.buffer[:end])
			skip := 1
			if r.buffer[end] == '\r' && end+1 < len(r.buffer) && r.buffer[end+1] == '\n' {
				skip = 2
			}
			r.buffer = r.buffer[end+skip:]
			return line, nil
		}
		if r.eof {
			return "", io.EOF
		}
		chunk := make([]byte, 32*1024)
		n, err := r.body.Read(chunk)
		if n > 0 {
			if r.touch != nil {
				r.touch()
			}
			r.buffer = append(r.buffer, chunk[:n]...)
			if !r.started {
				r.started = true
				r.buffer = bytes.TrimPrefix(r.buffer, []byte("\xef\xbb\xbf"))
			}
		}
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			return "", err
		}
	}
}
