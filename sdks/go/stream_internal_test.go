package crm

import (
	"io"
	"reflect"
	"testing"
)

// pieces is a body that arrives in the given pieces, one per Read.
type pieces struct{ parts []string }

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.parts[0])
	p.parts = p.parts[1:]
	return n, nil
}

func readAll(t *testing.T, parts ...string) []ServerSentEvent {
	t.Helper()
	r := &sseReader{body: &pieces{parts}}
	var events []ServerSentEvent
	for {
		e, err := r.next()
		if err == io.EOF {
			return events
		}
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
}

func TestServerSentEventsParsing(t *testing.T) {
	got := readAll(t, "\xef\xbb\xbf: heartbeat\r\nevent: text\r\ndata: {\"a\":", "1}\r", "\ndata:  two\r\n\r\nid: 7\ndata\rdata: x\r\r")
	want := []ServerSentEvent{{Event: "text", Data: "{\"a\":1}\n two"}, {Event: "message", Data: "\nx", ID: "7"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := readAll(t, "id: 1\n\nevent: done\n\n", "data: cut off"); len(got) != 0 {
		t.Fatalf("an event without data or cut off was dispatched: %q", got)
	}
}
