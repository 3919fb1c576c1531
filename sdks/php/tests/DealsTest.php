<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Model\Deal;

final class DealsTest extends TestCase
{
    public function testLifecycle(): void
    {
        $crm = $this->client();
        $deal = $crm->deals->create(['title' => 'Difference Engine', 'value' => 5000, 'currency' => 'GBP', 'stage' => Deal::STAGE_QUALIFIED]);
        self::assertSame(0.25, $deal->win_probability, 'the stage probability');
        self::assertSame(5000.0, $deal->value, 'value as a float');
        self::assertSame('Difference Engine', $crm->deals->retrieve($deal->id)->title, 'retrieved');
        self::assertSame(Deal::STAGE_PROPOSAL, $crm->deals->update($deal->id, ['stage' => 'proposal'])->stage, 'moved');
        $won = $crm->deals->win($deal->id);
        self::assertSame(Deal::STAGE_WON, $won->stage, 'won');
        self::assertTrue($won->won_at !== null, 'won_at');
        self::assertSame(Deal::STAGE_NEGOTIATION, $crm->deals->reopen($deal->id, ['stage' => 'negotiation'])->stage, 'reopened');
        $lost = $crm->deals->lose($deal->id, ['reason' => 'budget']);
        self::assertSame('budget', $lost->lost_reason, 'lost reason');
        $other = $crm->deals->create(['title' => 'Analytical Engine', 'value' => 1, 'currency' => 'EUR', 'stage' => 'lead_in']);
        self::assertSame(Deal::STAGE_LOST, $crm->deals->lose($other->id)->stage, 'lost without a reason');
        self::assertSame(true, $crm->deals->delete($deal->id)->deleted, 'deleted');
    }

    public function testListBulkAndPipelines(): void
    {
        $crm = $this->client();
        $tag = self::unique('deal');
        $result = $crm->deals->bulk(['mode' => 'create', 'records' => [
            ['title' => 'A', 'value' => 1, 'currency' => 'EUR', 'stage' => 'lead_in', 'tags' => [$tag]],
            ['title' => 'B', 'value' => 2, 'currency' => 'EUR', 'stage' => 'won', 'tags' => [$tag]],
        ]]);
        self::assertSame(2, $result->summary->created, 'created');
        $titles = array_map(fn (Deal $d) => $d->title, $crm->deals->list(['tag' => $tag, 'stage' => 'won'])->data);
        self::assertSame(['B'], $titles, 'won deals with the tag');
        $summary = $crm->deals->summarize(['tag' => $tag]);
        self::assertSame(2, $summary->count, 'summary count');
        $won = $summary->stages[4];
        self::assertSame(['won', 1, 'EUR'], [$won->stage, $won->count, $won->totals[0]->currency], 'won in the summary');
        self::assertSame(2.0, $won->totals[0]->value, 'won value');
        $stages = 0;
        foreach ($crm->pipelines->list()->autoPagingIterator() as $pipeline) {
            $stages += count($pipeline->stages);
        }
        self::assertSame(6, $stages, 'stages');
    }
}
