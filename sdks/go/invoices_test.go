package crm_test

import (
	"context"
	"testing"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

func TestInvoicesSendPayVoid(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	customer, err := client.Clients.Create(ctx, &crm.ClientCreateParams{Name: "Invoice Co", Email: crm.String(unique("billing") + "@example.com")})
	must(t, err)
	draft, err := client.Invoices.Create(ctx, &crm.InvoiceCreateParams{
		ClientID:  customer.ID,
		Currency:  crm.String("EUR"),
		LineItems: []*crm.InvoiceCreateLineItemParams{{Description: "Gears", Quantity: 3, UnitPrice: 19.99}},
		Send:      crm.Bool(false),
	})
	must(t, err)
	if draft.Status != crm.InvoiceStatusDraft || draft.Total != 59.97 || draft.LineItems[0].Amount != 59.97 {
		t.Fatalf("draft %+v", draft)
	}
	changed, err := client.Invoices.Update(ctx, draft.ID, &crm.InvoiceUpdateParams{DueDate: crm.String("2030-01-31")})
	must(t, err)
	if *changed.DueDate != "2030-01-31" {
		t.Fatalf("updated %+v", changed)
	}
	sent, err := client.Invoices.Send(ctx, draft.ID)
	must(t, err)
	if sent.Status != crm.InvoiceStatusOpen || sent.PaymentLink == nil {
		t.Fatalf("sent %+v", sent)
	}
	paid, err := client.Invoices.Pay(ctx, draft.ID)
	must(t, err)
	if paid.Status != crm.InvoiceStatusPaid || paid.PaidAt == nil {
		t.Fatalf("paid %+v", paid)
	}
	got, err := client.Invoices.Retrieve(ctx, draft.ID)
	must(t, err)
	if got.Number != draft.Number {
		t.Fatalf("retrieved %+v", got)
	}

	other, err := client.Invoices.Create(ctx, &crm.InvoiceCreateParams{ClientID: customer.ID, LineItems: []*crm.InvoiceCreateLineItemParams{{Description: "Cogs", Quantity: 1, UnitPrice: 5}}})
	must(t, err)
	voided, err := client.Invoices.Void(ctx, other.ID)
	must(t, err)
	if voided.Status != crm.InvoiceStatusVoid {
		t.Fatalf("voided %+v", voided)
	}
	count := 0
	it := client.Invoices.List(ctx, &crm.InvoiceListParams{ClientID: crm.String(customer.ID)})
	for it.Next() {
		count++
	}
	must(t, it.Err())
	if count != 2 {
		t.Fatalf("%d invoices of the client, want 2", count)
	}
}
