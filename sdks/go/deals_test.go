package crm_test

import (
	"context"
	"testing"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

func TestDealsLifecycle(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	deal, err := client.Deals.Create(ctx, &crm.DealCreateParams{Title: "Difference Engine", Value: 5000, Currency: "GBP", Stage: crm.StageQualified})
	must(t, err)
	if deal.WinProbability != 0.25 || deal.Stage != crm.StageQualified {
		t.Fatalf("created %+v", deal)
	}
	got, err := client.Deals.Retrieve(ctx, deal.ID)
	must(t, err)
	if got.Title != "Difference Engine" {
		t.Fatalf("retrieved %+v", got)
	}
	moved, err := client.Deals.Update(ctx, deal.ID, &crm.DealUpdateParams{Stage: crm.String(crm.StageProposal)})
	must(t, err)
	if moved.Stage != crm.StageProposal {
		t.Fatalf("updated %+v", moved)
	}
	won, err := client.Deals.Win(ctx, deal.ID)
	must(t, err)
	if won.Stage != crm.StageWon || won.WonAt == nil {
		t.Fatalf("won %+v", won)
	}
	reopened, err := client.Deals.Reopen(ctx, deal.ID, &crm.DealReopenParams{Stage: crm.StageNegotiation})
	must(t, err)
	if reopened.Stage != crm.StageNegotiation {
		t.Fatalf("reopened %+v", reopened)
	}
	lost, err := client.Deals.Lose(ctx, deal.ID, &crm.DealLoseParams{Reason: crm.String("budget")})
	must(t, err)
	if lost.Stage != crm.StageLost || *lost.LostReason != "budget" {
		t.Fatalf("lost %+v", lost)
	}
	// Lose without a reason: the params may be nil.
	other, err := client.Deals.Create(ctx, &crm.DealCreateParams{Title: "Analytical Engine", Value: 1, Currency: "EUR", Stage: crm.StageLeadIn})
	must(t, err)
	if _, err := client.Deals.Lose(ctx, other.ID, nil); err != nil {
		t.Fatal(err)
	}
	deleted, err := client.Deals.Delete(ctx, deal.ID)
	must(t, err)
	if !deleted.Deleted {
		t.Fatalf("deleted %+v", deleted)
	}
}

func TestDealsListBulkAndPipelines(t *testing.T) {
	client, ctx := newClient(t), context.Background()
	tag := unique("deal")
	result, err := client.Deals.Bulk(ctx, &crm.DealBulkParams{Mode: "create", Records: []*crm.DealBulkRecordParams{
		{Title: "A", Value: 1, Currency: "EUR", Stage: crm.StageLeadIn, Tags: []string{tag}},
		{Title: "B", Value: 2, Currency: "EUR", Stage: crm.StageWon, Tags: []string{tag}},
	}})
	must(t, err)
	if result.Summary.Created != 2 {
		t.Fatalf("bulk %+v", result.Summary)
	}
	it := client.Deals.List(ctx, &crm.DealListParams{Tag: crm.String(tag), Stage: crm.String(crm.StageWon)})
	var titles []string
	for it.Next() {
		titles = append(titles, it.Deal().Title)
	}
	must(t, it.Err())
	if len(titles) != 1 || titles[0] != "B" {
		t.Fatalf("won deals with the tag: %v", titles)
	}
	summary, err := client.Deals.Summarize(ctx, &crm.DealSummarizeParams{Tag: crm.String(tag)})
	must(t, err)
	if summary.Count != 2 || summary.Stages[0].Stage != crm.StageLeadIn || summary.Stages[0].Count != 1 || summary.Stages[0].Totals[0].Value != "1" {
		t.Fatalf("summary of the tag: %+v, first stage %+v", summary, summary.Stages[0])
	}
	won := summary.Stages[4]
	if won.Stage != crm.StageWon || won.Count != 1 || len(won.Totals) != 1 || won.Totals[0].Currency != "EUR" || won.Totals[0].Value != "2" {
		t.Fatalf("won in the summary: %+v", won)
	}
	pipelines := client.Pipelines.List(ctx)
	stages := 0
	for pipelines.Next() {
		stages += len(pipelines.Pipeline().Stages)
	}
	must(t, pipelines.Err())
	if stages != 6 {
		t.Fatalf("%d stages, want 6", stages)
	}
}
