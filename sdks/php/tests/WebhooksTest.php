<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Model\Event;
use Crm\Model\WebhookEndpoint;
use Crm\Webhook;

final class WebhooksTest extends TestCase
{
    /** Waits for a delivery of $type and verifies its signature with $secret. */
    private static function waitFor(Receiver $receiver, string $type, string $secret): Event
    {
        for ($i = 0; $i < 20; $i++) {
            $delivery = $receiver->next();
            $event = Webhook::verify($secret, $delivery['headers'], $delivery['body']);
            if ($event->type === $type) {
                return $event;
            }
        }
        throw new AssertionFailed("no $type delivery");
    }

    public function testEndpointsDeliverSignedEvents(): void
    {
        $crm = $this->client();
        $receiver = new Receiver();
        $endpoint = $crm->webhookEndpoints->create(['url' => $receiver->url, 'enabled_events' => ['lead.created'], 'description' => 'php sdk test']);
        try {
            self::assertTrue(str_starts_with($endpoint->secret, 'whsec_'), 'the secret');
            $lead = $crm->leads->create(['first_name' => 'Hooked']);
            $event = self::waitFor($receiver, 'lead.created', $endpoint->secret);
            self::assertSame($lead->id, $event->data->object['id'], 'the event is about the lead');
            self::assertSame(Event::TYPE_LEAD_CREATED, $crm->events->retrieve($event->id)->type, 'retrieved');
            $ids = [];
            foreach ($crm->events->list(['type' => 'lead.created', 'limit' => 100])->autoPagingIterator() as $e) {
                $ids[] = $e->id;
            }
            self::assertTrue(in_array($event->id, $ids, true), 'listed');

            $resent = $crm->events->resend($event->id, ['endpoint_id' => $endpoint->id]);
            self::assertSame(1, count($resent->deliveries), 'one delivery queued');
            self::assertSame($event->id, self::waitFor($receiver, 'lead.created', $endpoint->secret)->id, 'resent');
            $deliveries = $crm->webhookEndpoints->listDeliveries($endpoint->id, ['event_id' => $event->id]);
            self::assertTrue(count($deliveries) >= 2, 'deliveries listed');

            $rotated = $crm->webhookEndpoints->rotateSecret($endpoint->id);
            self::assertTrue($rotated->secret !== $endpoint->secret && $rotated->previous_secret_expires_at !== null, 'rotated');
            $crm->leads->create(['first_name' => 'Rotated']);
            self::waitFor($receiver, 'lead.created', $rotated->secret);
            $expired = $crm->webhookEndpoints->rotateSecret($endpoint->id, ['expire_old' => true]);
            self::assertTrue($expired->previous_secret_expires_at === null, 'rotated with expire_old');
            $crm->leads->create(['first_name' => 'Expired']);
            self::waitFor($receiver, 'lead.created', $expired->secret);

            $recovered = $crm->webhookEndpoints->recover($endpoint->id, ['since' => gmdate('Y-m-d\TH:i:s\Z', time() - 3600)]);
            self::assertSame($endpoint->id, $recovered->endpoint_id, 'recover');
            self::assertSame(0, $recovered->requeued, 'nothing failed, nothing requeued');
        } finally {
            $crm->webhookEndpoints->delete($endpoint->id);
            $receiver->close();
        }
    }

    public function testEndpointsCrud(): void
    {
        $crm = $this->client();
        $endpoint = $crm->webhookEndpoints->create(['url' => 'http://127.0.0.1:9/never']);
        $got = $crm->webhookEndpoints->retrieve($endpoint->id);
        self::assertSame(['*'], $got->enabled_events, 'every event by default');
        $updated = $crm->webhookEndpoints->update($endpoint->id, ['status' => 'disabled']);
        self::assertSame(WebhookEndpoint::STATUS_DISABLED, $updated->status, 'disabled');
        $ids = array_map(fn ($e) => $e->id, $crm->webhookEndpoints->list()->data);
        self::assertTrue(in_array($endpoint->id, $ids, true), 'listed');
        self::assertSame(true, $crm->webhookEndpoints->delete($endpoint->id)->deleted, 'deleted');
    }
}
