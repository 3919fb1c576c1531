<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Model\BulkResponseResult;
use Crm\Model\Lead;
use Crm\NotFoundError;

final class LeadsTest extends TestCase
{
    public function testCreateRetrieveUpdateDelete(): void
    {
        $crm = $this->client();
        $email = self::unique('ada') . '@example.com';
        $key = self::unique('key-');
        $lead = $crm->leads->create(['first_name' => 'Ada', 'email' => $email, 'tags' => ['vip']], ['idempotency_key' => $key]);
        self::assertTrue($lead instanceof Lead, 'a Lead');
        self::assertSame(Lead::STATUS_NEW, $lead->status, 'status');
        self::assertSame(['vip'], $lead->tags, 'tags');
        self::assertSame(201, $lead->getLastResponse()->status, 'status code');
        self::assertTrue(str_starts_with($lead->getLastResponse()->requestId() ?? '', 'req_'), 'a request id');
        self::assertTrue(($lead->getLastResponse()->rateLimitLimit() ?? 0) > 0, 'rate-limit fields');

        $replay = $crm->leads->create(['first_name' => 'Ada', 'email' => $email, 'tags' => ['vip']], ['idempotency_key' => $key]);
        self::assertSame($lead->id, $replay->id, 'the replay is the same lead');
        self::assertTrue($replay->getLastResponse()->idempotentReplayed(), 'Idempotent-Replayed');

        self::assertSame('Ada', $crm->leads->retrieve($lead->id)->first_name, 'retrieved');
        $updated = $crm->leads->update($lead->id, ['status' => Lead::STATUS_QUALIFIED, 'company' => 'Analytical Engines']);
        self::assertSame('qualified', $updated->status, 'updated status');
        self::assertSame('Analytical Engines', $updated->company, 'updated company');
        $deleted = $crm->leads->delete($lead->id);
        self::assertSame(true, $deleted->deleted, 'deleted');
        self::assertThrows(NotFoundError::class, fn () => $crm->leads->retrieve($lead->id));
    }

    public function testConvert(): void
    {
        $crm = $this->client();
        $lead = $crm->leads->create(['company' => 'Babbage Ltd', 'email' => self::unique('c') . '@example.com']);
        $conversion = $crm->leads->convert($lead->id, ['deal' => ['title' => 'Engine', 'value' => 1200.5, 'currency' => 'EUR']]);
        self::assertSame(Lead::STATUS_CONVERTED, $conversion->lead->status, 'lead status');
        self::assertSame('Babbage Ltd', $conversion->client->name, 'client');
        self::assertSame(1200.5, $conversion->deal->value, 'deal value');
        self::assertSame($conversion->client->id, $conversion->deal->client_id, 'the deal belongs to the client');
    }

    public function testBulk(): void
    {
        $crm = $this->client();
        $prefix = self::unique('ext-');
        $records = [
            ['external_id' => $prefix . '1', 'first_name' => 'One'],
            ['external_id' => $prefix . '2', 'first_name' => 'Two'],
            ['external_id' => $prefix . '3', 'email' => 'not an email'],
        ];
        $result = $crm->leads->bulk(['mode' => 'upsert', 'records' => $records]);
        self::assertSame(2, $result->summary->created, 'created');
        self::assertSame(1, $result->summary->failed, 'failed');
        self::assertSame(BulkResponseResult::STATUS_FAILED, $result->results[2]->status, 'the bad record');
        self::assertSame('validation_failed', $result->results[2]->error->code, 'its error');
        $again = $crm->leads->bulk(['mode' => 'upsert', 'records' => array_slice($records, 0, 2)]);
        self::assertSame(2, $again->summary->unchanged, 'unchanged');
    }

    public function testListAutoPagesAcrossPages(): void
    {
        $crm = $this->client();
        $tag = self::unique('page');
        $created = [];
        for ($i = 0; $i < 7; $i++) {
            $created[] = $crm->leads->create(['last_name' => 'Paged', 'tags' => [$tag]])->id;
        }
        $page = $crm->leads->list(['limit' => 2, 'tag' => $tag]);
        self::assertSame(2, count($page), 'the first page');
        self::assertTrue($page->has_more, 'has_more');
        $seen = [];
        foreach ($page->autoPagingIterator() as $lead) {
            self::assertTrue($lead instanceof Lead, 'items are Leads');
            $seen[] = $lead->id;
        }
        self::assertSame($created, $seen, 'every lead once, in creation order');
        $pages = 1;
        for ($p = $page; ($p = $p->nextPage()) !== null;) {
            $pages++;
        }
        self::assertSame(4, $pages, 'pages');
    }
}
