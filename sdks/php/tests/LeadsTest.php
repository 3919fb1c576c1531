<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Model\Lead;

final class LeadsTest extends TestCase
{
    public function testCreateRetrieve(): void
    {
        $crm = $this->client();
        $lead = $crm->leads->create(['first_name' => 'Ada', 'email' => 'ada@example.com'], ['idempotency_key' => 'k-' . uniqid()]);
        self::assertTrue($lead instanceof Lead, 'a Lead');
        self::assertSame(201, $lead->getLastResponse()->status);
        $again = $crm->leads->retrieve($lead->id);
        self::assertSame('Ada', $again->first_name);
    }
}
