<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Client;
use Crm\NotFoundError;

final class RetriesTest extends TestCase
{
    private const UUID_V4 = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/';

    /** A write that fails twice with 503 is retried with one Idempotency-Key and written once. */
    public function testRetriedWriteIsSeenOnce(): void
    {
        $proxy = RecordingProxy::start($this->sandbox->baseUrl);
        try {
            $crm = new Client(['api_key' => $this->sandbox->apiKey, 'base_url' => $proxy->url]);
            $this->armFault('POST', '/v1/leads', 503, 2);
            $email = self::unique('retry') . '@example.com';
            $lead = $crm->leads->create(['email' => $email]);
            $sent = $proxy->requests();
            self::assertSame(3, count($sent), 'attempts');
            $keys = array_unique(array_column($sent, 'idempotency_key'));
            self::assertSame(1, count($keys), 'one key on every attempt');
            self::assertTrue((bool) preg_match(self::UUID_V4, (string) $keys[0]), 'a UUID v4 key');
            self::assertSame('crm-sdk-php/' . Client::VERSION . ' (php ' . PHP_VERSION . ')', $sent[0]['user_agent'], 'User-Agent');
        } finally {
            $proxy->stop();
        }
        $crm = $this->client();
        self::assertSame(1, count($crm->leads->list(['email' => $email])), 'one lead');
        $events = 0;
        foreach ($crm->events->list(['type' => 'lead.created', 'limit' => 1000])->autoPagingIterator() as $event) {
            $events += ($event->data->object['id'] ?? null) === $lead->id ? 1 : 0;
        }
        self::assertSame(1, $events, 'one lead.created event');
    }

    /** Reads carry no Idempotency-Key; a caller's key is sent as given. */
    public function testIdempotencyKeyOnlyOnWrites(): void
    {
        $proxy = RecordingProxy::start($this->sandbox->baseUrl);
        try {
            $crm = new Client(['api_key' => $this->sandbox->apiKey, 'base_url' => $proxy->url]);
            $key = self::unique('caller-key-');
            $lead = $crm->leads->create(['first_name' => 'k'], ['idempotency_key' => $key]);
            $crm->leads->retrieve($lead->id);
            $crm->leads->delete($lead->id);
            $keys = array_column($proxy->requests(), 'idempotency_key');
            self::assertSame($key, $keys[0], 'the caller key');
            self::assertSame(null, $keys[1], 'no key on a GET');
            self::assertTrue((bool) preg_match(self::UUID_V4, (string) $keys[2]), 'a fresh key on DELETE');
        } finally {
            $proxy->stop();
        }
    }

    /** Under --rate-limit 2/1s a burst gets 429s, which the client waits out. */
    public function testRateLimitIsWaitedOut(): void
    {
        $crm = new Client(['api_key' => $this->limited->apiKey, 'base_url' => $this->limited->baseUrl, 'max_retries' => 5]);
        for ($i = 0; $i < 6; $i++) {
            $crm->leads->create(['first_name' => 'burst']);
        }
        $limited = 0;
        foreach ($crm->usage->retrieve()->by_status as $row) {
            $limited += $row->status === 429 ? $row->requests : 0;
        }
        self::assertTrue($limited > 0, 'the sandbox answered 429s that the client waited out');
    }

    public function testRawRequest(): void
    {
        $crm = $this->client();
        $response = $crm->rawRequest('GET', '/v1/leads?limit=1');
        self::assertSame(200, $response->status, 'status');
        self::assertSame(1, count($response->json['data']), 'one lead');
        self::assertThrows(NotFoundError::class, fn () => $crm->rawRequest('GET', '/v1/nothing-here'));
    }

    public function testClientFallsBackToEnvironment(): void
    {
        putenv('CRM_API_KEY=' . $this->sandbox->apiKey);
        putenv('CRM_BASE_URL=' . $this->sandbox->baseUrl);
        try {
            $crm = new Client();
            self::assertSame($this->sandbox->baseUrl, $crm->getBaseUrl(), 'base URL');
            self::assertSame(200, $crm->usage->retrieve()->getLastResponse()->status, 'a call with the environment key');
            putenv('CRM_API_KEY');
            self::assertThrows(\Crm\AuthenticationError::class, fn () => (new Client())->usage->retrieve());
            self::assertThrows(\InvalidArgumentException::class, fn () => new Client(['apikey' => 'typo']));
            self::assertThrows(\InvalidArgumentException::class, fn () => $crm->leads->list([], ['idempotencykey' => 'typo']));
            self::assertThrows(\InvalidArgumentException::class, fn () => $crm->leads->list([], ['headers' => ['X-A' => "1\r\nX-Injected: 1"]]));
            self::assertThrows(\InvalidArgumentException::class, fn () => $crm->leads->list([], ['headers' => ['Bad Name' => '1']]));
            self::assertSame(200, $crm->leads->list([], ['headers' => ['X-Trace' => 'abc']])->getLastResponse()->status, 'a valid extra header');
        } finally {
            putenv('CRM_API_KEY');
            putenv('CRM_BASE_URL');
        }
    }
}
