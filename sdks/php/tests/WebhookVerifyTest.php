<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\SignatureVerificationError;
use Crm\Webhook;

final class WebhookVerifyTest extends TestCase
{
    private const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    private const OTHER = 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCBrZXkhIQ==';
    private const BODY = '{"id":"evt_1","type":"lead.created","created_at":"2026-11-21T12:00:00.000Z","data":{"object":{"id":"lead_1"}}}';

    /** @return array<string, string> */
    private static function headers(string $secret, string $id, int $timestamp, string $body): array
    {
        return ['Webhook-Id' => $id, 'Webhook-Timestamp' => (string) $timestamp, 'Webhook-Signature' => Webhook::sign($secret, $id, $timestamp, $body)];
    }

    public function testVerify(): void
    {
        $now = time();
        $event = Webhook::verify(self::SECRET, self::headers(self::SECRET, 'evt_1', $now, self::BODY), self::BODY);
        self::assertSame('lead.created', $event->type, 'type');
        self::assertSame('lead_1', $event->data->object['id'], 'object');

        $rotating = self::headers(self::SECRET, 'evt_1', $now, self::BODY);
        $rotating['Webhook-Signature'] .= ' ' . Webhook::sign(self::OTHER, 'evt_1', $now, self::BODY);
        self::assertSame('evt_1', Webhook::verify(self::OTHER, $rotating, self::BODY)->id, 'the second listed signature');
        self::assertSame('evt_1', Webhook::verify(self::SECRET, ['webhook-id' => ['evt_1']] + $rotating, self::BODY, $now)->id, 'PSR-7 style header arrays');
    }

    /** The shared test vectors of the four SDKs (sdks/test-vectors/webhooks.json). */
    public function testSharedVectors(): void
    {
        $vectors = json_decode((string) file_get_contents(__DIR__ . '/../../test-vectors/webhooks.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertTrue(count($vectors['cases']) >= 10, 'vectors');
        foreach ($vectors['cases'] as $v) {
            $headers = ['webhook-id' => $v['id'], 'webhook-timestamp' => (string) $v['timestamp'], 'webhook-signature' => $v['signature']];
            try {
                $event = Webhook::verify($v['secret'], $headers, $v['body'], $v['now']);
                self::assertTrue($v['valid'], $v['name'] . ': accepted');
                self::assertSame($v['id'], $event->id, $v['name']);
            } catch (SignatureVerificationError) {
                self::assertTrue(!$v['valid'], $v['name'] . ': refused');
            }
        }
    }

    public function testRejects(): void
    {
        $now = time();
        $cases = [
            'wrong secret' => [self::headers(self::OTHER, 'evt_1', $now, self::BODY), self::BODY],
            'tampered body' => [self::headers(self::SECRET, 'evt_1', $now, self::BODY), ' ' . self::BODY],
            'other id' => [['Webhook-Id' => 'evt_2'] + self::headers(self::SECRET, 'evt_1', $now, self::BODY), self::BODY],
            'too old' => [self::headers(self::SECRET, 'evt_1', $now - 360, self::BODY), self::BODY],
            'too far ahead' => [self::headers(self::SECRET, 'evt_1', $now + 360, self::BODY), self::BODY],
            'missing headers' => [[], self::BODY],
        ];
        foreach ($cases as $name => [$headers, $body]) {
            try {
                Webhook::verify(self::SECRET, $headers, $body);
                throw new AssertionFailed("$name: verified");
            } catch (SignatureVerificationError) {
                // expected
            }
        }
        $headers = self::headers(self::SECRET, 'evt_1', $now, self::BODY);
        $headers['Webhook-Signature'] = 'v2,' . substr($headers['Webhook-Signature'], 3);
        self::assertThrows(SignatureVerificationError::class, fn () => Webhook::verify(self::SECRET, $headers, self::BODY));
    }
}
