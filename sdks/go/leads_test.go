package crm_test

import (
	"context"
	"testing"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

func TestLeadsCreateRetrieveUpdateDelete(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	email := unique("ada") + "@example.com"
	key := unique("key-")
	lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("Ada"), Email: crm.String(email), Tags: []string{"vip"}},
		&crm.RequestOptions{IdempotencyKey: key})
	must(t, err)
	if lead.Status != crm.LeadStatusNew || *lead.Email != email || lead.Tags[0] != "vip" || lead.LastResponse.StatusCode != 201 {
		t.Fatalf("created: %+v (%d)", lead, lead.LastResponse.StatusCode)
	}
	if lead.LastResponse.RequestID == "" || lead.LastResponse.RateLimitLimit <= 0 {
		t.Fatalf("last response lacks the request id or rate-limit fields: %+v", lead.LastResponse)
	}

	// The same key and body again: the stored answer, no second lead.
	replay, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("Ada"), Email: crm.String(email), Tags: []string{"vip"}},
		&crm.RequestOptions{IdempotencyKey: key})
	must(t, err)
	if replay.ID != lead.ID || !replay.LastResponse.IdempotentReplayed {
		t.Fatalf("replay: %s replayed=%v, want %s replayed", replay.ID, replay.LastResponse.IdempotentReplayed, lead.ID)
	}

	got, err := client.Leads.Retrieve(ctx, lead.ID)
	must(t, err)
	if *got.FirstName != "Ada" {
		t.Fatalf("retrieved %+v", got)
	}
	updated, err := client.Leads.Update(ctx, lead.ID, &crm.LeadUpdateParams{Status: crm.String(crm.LeadStatusQualified), Company: crm.String("Analytical Engines")})
	must(t, err)
	if updated.Status != "qualified" || *updated.Company != "Analytical Engines" {
		t.Fatalf("updated %+v", updated)
	}
	deleted, err := client.Leads.Delete(ctx, lead.ID)
	must(t, err)
	if !deleted.Deleted || deleted.ID != lead.ID {
		t.Fatalf("deleted %+v", deleted)
	}
	_, err = client.Leads.Retrieve(ctx, lead.ID)
	if e := kindOf(t, err); e.Kind != crm.ErrNotFound {
		t.Fatalf("after delete: %v", err)
	}
}

func TestLeadsConvert(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{Company: crm.String("Babbage Ltd"), Email: crm.String(unique("c") + "@example.com")})
	must(t, err)
	conversion, err := client.Leads.Convert(ctx, lead.ID, &crm.LeadConvertParams{
		Deal: &crm.LeadConvertDealParams{Title: crm.String("Engine"), Value: 1200.5, Currency: "EUR"},
	})
	must(t, err)
	if conversion.Lead.Status != crm.LeadStatusConverted || conversion.Client.Name != "Babbage Ltd" || conversion.Deal == nil || conversion.Deal.Value != 1200.5 {
		t.Fatalf("conversion: lead %+v client %+v deal %+v", conversion.Lead, conversion.Client, conversion.Deal)
	}
	if *conversion.Deal.ClientID != conversion.Client.ID {
		t.Fatalf("the deal belongs to %v, want %s", conversion.Deal.ClientID, conversion.Client.ID)
	}
}

func TestLeadsBulk(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	prefix := unique("ext-")
	records := []*crm.LeadBulkRecordParams{
		{ExternalID: crm.String(prefix + "1"), FirstName: crm.String("One")},
		{ExternalID: crm.String(prefix + "2"), FirstName: crm.String("Two")},
		{ExternalID: crm.String(prefix + "3"), Email: crm.String("not an email")},
	}
	result, err := client.Leads.Bulk(ctx, &crm.LeadBulkParams{Mode: "upsert", Records: records})
	must(t, err)
	if result.Summary.Created != 2 || result.Summary.Failed != 1 || result.Results[2].Status != crm.BulkResponseResultStatusFailed || result.Results[2].Error.Code == "" {
		t.Fatalf("bulk: %+v %+v", result.Summary, result.Results[2])
	}
	again, err := client.Leads.Bulk(ctx, &crm.LeadBulkParams{Mode: "upsert", Records: records[:2]})
	must(t, err)
	if again.Summary.Unchanged != 2 {
		t.Fatalf("second bulk: %+v", again.Summary)
	}
}

func TestLeadsListAutoPagesAcrossPages(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	tag := unique("page")
	created := map[string]bool{}
	for i := 0; i < 7; i++ {
		lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{LastName: crm.String("Paged"), Tags: []string{tag}})
		must(t, err)
		created[lead.ID] = true
	}
	it := client.Leads.List(ctx, &crm.LeadListParams{Limit: crm.Int(2), Tag: crm.String(tag)})
	seen := map[string]bool{}
	pages := map[*crm.LeadList]bool{}
	for it.Next() {
		lead := it.Lead()
		if seen[lead.ID] || !created[lead.ID] {
			t.Fatalf("lead %s repeated or not one of ours", lead.ID)
		}
		seen[lead.ID] = true
		pages[it.LeadList()] = true
	}
	must(t, it.Err())
	if len(seen) != 7 || len(pages) != 4 {
		t.Fatalf("saw %d leads on %d pages, want 7 on 4", len(seen), len(pages))
	}
	if it.LastResponse() == nil || it.LastResponse().StatusCode != 200 {
		t.Fatalf("the iterator's last response: %+v", it.LastResponse())
	}
}
