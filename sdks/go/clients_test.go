package crm_test

import (
	"context"
	"testing"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

func TestClientsAndContacts(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	name := unique("Lovelace Labs ")
	created, err := client.Clients.Create(ctx, &crm.ClientCreateParams{
		Name:     name,
		Address:  &crm.AddressParams{City: crm.String("London"), Country: crm.String("GB")},
		Contacts: []*crm.ContactCreateParams{{FirstName: crm.String("Ada"), IsPrimary: crm.Bool(true)}},
	})
	must(t, err)
	if created.Kind != crm.ClientKindCompany || *created.Address.City != "London" || len(created.Contacts) != 1 || !created.Contacts[0].IsPrimary {
		t.Fatalf("created %+v", created)
	}
	got, err := client.Clients.Retrieve(ctx, created.ID)
	must(t, err)
	if got.Name != name {
		t.Fatalf("retrieved %+v", got)
	}
	updated, err := client.Clients.Update(ctx, created.ID, &crm.ClientUpdateParams{Website: crm.String("https://lovelace.example")})
	must(t, err)
	if *updated.Website != "https://lovelace.example" {
		t.Fatalf("updated %+v", updated)
	}
	found := 0
	it := client.Clients.List(ctx, &crm.ClientListParams{Q: crm.String("Lovelace")})
	for it.Next() {
		if it.Client().ID == created.ID {
			found++
		}
	}
	must(t, it.Err())
	if found != 1 {
		t.Fatalf("search found the client %d times", found)
	}

	// Contact persons, under the client.
	contact, err := client.Clients.Contacts.Create(ctx, created.ID, &crm.ContactCreateParams{FirstName: crm.String("Charles"), Role: crm.String("CTO")})
	must(t, err)
	if contact.ClientID != created.ID || *contact.Role != "CTO" {
		t.Fatalf("contact %+v", contact)
	}
	again, err := client.Clients.Contacts.Retrieve(ctx, created.ID, contact.ID)
	must(t, err)
	if *again.FirstName != "Charles" {
		t.Fatalf("contact retrieved %+v", again)
	}
	changed, err := client.Clients.Contacts.Update(ctx, created.ID, contact.ID, &crm.ContactUpdateParams{Role: crm.String("CEO")})
	must(t, err)
	if *changed.Role != "CEO" {
		t.Fatalf("contact updated %+v", changed)
	}
	count := 0
	contacts := client.Clients.Contacts.List(ctx, created.ID, nil)
	for contacts.Next() {
		count++
	}
	must(t, contacts.Err())
	if count != 2 {
		t.Fatalf("%d contacts, want 2", count)
	}
	removed, err := client.Clients.Contacts.Delete(ctx, created.ID, contact.ID)
	must(t, err)
	if !removed.Deleted {
		t.Fatalf("contact deleted %+v", removed)
	}
	deleted, err := client.Clients.Delete(ctx, created.ID)
	must(t, err)
	if !deleted.Deleted {
		t.Fatalf("deleted %+v", deleted)
	}
}

func TestClientsBulk(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	ext := unique("cli-")
	result, err := client.Clients.Bulk(ctx, &crm.ClientBulkParams{Mode: "upsert", Records: []*crm.ClientBulkRecordParams{
		{Name: "Bulk One", ExternalID: crm.String(ext)},
	}})
	must(t, err)
	if result.Summary.Created != 1 || result.Results[0].ID == "" {
		t.Fatalf("bulk %+v", result.Summary)
	}
	result, err = client.Clients.Bulk(ctx, &crm.ClientBulkParams{Mode: "upsert", Records: []*crm.ClientBulkRecordParams{
		{Name: "Bulk One renamed", ExternalID: crm.String(ext)},
	}})
	must(t, err)
	if result.Summary.Updated != 1 {
		t.Fatalf("bulk update %+v", result.Summary)
	}
}
