package crm_test

import (
	"context"
	"testing"

	"crm"
)

func TestLeadCreateRetrieve(t *testing.T) {
	client := newClient(t)
	ctx := context.Background()
	lead, err := client.Leads.Create(ctx, &crm.LeadCreateParams{FirstName: crm.String("Ada"), Email: crm.String("ada@example.com")})
	if err != nil {
		t.Fatal(err)
	}
	if lead.LastResponse.StatusCode != 201 || lead.LastResponse.RequestID == "" {
		t.Fatalf("last response: %+v", lead.LastResponse)
	}
	got, err := client.Leads.Retrieve(ctx, lead.ID)
	if err != nil || *got.FirstName != "Ada" {
		t.Fatalf("retrieve: %v %+v", err, got)
	}
}
