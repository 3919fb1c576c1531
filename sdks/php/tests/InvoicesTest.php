<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Model\Invoice;

final class InvoicesTest extends TestCase
{
    public function testSendPayVoid(): void
    {
        $crm = $this->client();
        $customer = $crm->clients->create(['name' => 'Invoice Co', 'email' => self::unique('billing') . '@example.com']);
        $draft = $crm->invoices->create([
            'client_id' => $customer->id,
            'currency' => 'EUR',
            'line_items' => [['description' => 'Gears', 'quantity' => 3, 'unit_price' => 19.99]],
            'send' => false,
        ]);
        self::assertSame(Invoice::STATUS_DRAFT, $draft->status, 'draft');
        self::assertSame(59.97, $draft->total, 'total');
        self::assertSame(59.97, $draft->line_items[0]->amount, 'line amount');
        self::assertSame('2030-01-31', $crm->invoices->update($draft->id, ['due_date' => '2030-01-31'])->due_date, 'updated');
        $sent = $crm->invoices->send($draft->id);
        self::assertSame(Invoice::STATUS_OPEN, $sent->status, 'sent');
        self::assertTrue($sent->payment_link !== null, 'payment link');
        self::assertSame(Invoice::STATUS_PAID, $crm->invoices->pay($draft->id)->status, 'paid');
        self::assertSame($draft->number, $crm->invoices->retrieve($draft->id)->number, 'retrieved');

        $other = $crm->invoices->create(['client_id' => $customer->id, 'line_items' => [['description' => 'Cogs', 'quantity' => 1, 'unit_price' => 5]]]);
        self::assertSame(Invoice::STATUS_VOID, $crm->invoices->void($other->id)->status, 'voided');
        self::assertSame(2, count($crm->invoices->list(['client_id' => $customer->id])), 'two invoices');
    }
}
