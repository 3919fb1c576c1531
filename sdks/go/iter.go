package crm

import (
	"context"
	"net/url"
)

// listPage is one page of a list ({data, next_cursor}); generated list types implement it.
type listPage interface {
	lastResponseSetter
	items() []interface{}
	cursor() *string
}

// Iter walks every item of a list, fetching the next page when the current one runs out.
// The generated iterators (LeadIter, …) wrap it with a typed accessor:
//
//	it := client.Leads.List(ctx, &crm.LeadListParams{Limit: crm.Int(100)})
//	for it.Next() {
//		lead := it.Lead()
//	}
//	if err := it.Err(); err != nil { … }
type Iter struct {
	ctx     context.Context
	fetch   func(cursor *string) (listPage, error)
	page    listPage
	pending []interface{}
	current interface{}
	err     error
}

// newIter makes an iterator over the list at path; newPage makes an empty page to decode into.
func (b *backend) newIter(ctx context.Context, path string, query url.Values, opts []*RequestOptions, newPage func() listPage) *Iter {
	if query == nil {
		query = url.Values{}
	}
	it := &Iter{ctx: ctx}
	it.fetch = func(cursor *string) (listPage, error) {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		if cursor != nil {
			q.Set("cursor", *cursor)
		}
		page := newPage()
		return page, b.call(ctx, "GET", path, q, nil, opts, page)
	}
	return it
}

// Next moves to the next item, fetching a page when needed; false at the end or on an error.
func (it *Iter) Next() bool {
	for len(it.pending) == 0 {
		if it.err != nil {
			return false
		}
		var cursor *string
		if it.page != nil {
			if cursor = it.page.cursor(); cursor == nil {
				return false
			}
		}
		page, err := it.fetch(cursor)
		if err != nil {
			it.err = err
			return false
		}
		it.page, it.pending = page, page.items()
		if len(it.pending) == 0 && page.cursor() == nil {
			return false
		}
	}
	it.current, it.pending = it.pending[0], it.pending[1:]
	return true
}

// Current is the item Next moved to (the typed accessors such as LeadIter.Lead are nicer).
func (it *Iter) Current() interface{} { return it.current }

// Err is the error that stopped the iteration, if any.
func (it *Iter) Err() error { return it.err }

// LastResponse is the response of the page fetched last.
func (it *Iter) LastResponse() *APIResponse {
	if r, ok := it.page.(interface{ lastResponse() *APIResponse }); ok {
		return r.lastResponse()
	}
	return nil
}

func (r *APIResource) lastResponse() *APIResponse { return r.LastResponse }
