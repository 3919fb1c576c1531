<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\ApiError;
use Crm\AuthenticationError;
use Crm\Client;
use Crm\ConflictError;
use Crm\ConnectionError;
use Crm\CrmError;
use Crm\IdempotencyError;
use Crm\NotFoundError;
use Crm\PermissionError;
use Crm\RateLimitError;
use Crm\ValidationError;

/** Each error family, produced by a real answer of the sandbox. */
final class ErrorsTest extends TestCase
{
    public function testAuthentication(): void
    {
        $e = self::assertThrows(AuthenticationError::class, fn () => $this->client()->leads->retrieve('lead_x', ['api_key' => 'crm_test_wrong']));
        self::assertSame(401, $e->status, 'status');
        self::assertSame('unauthenticated', $e->errorCode, 'code');
        self::assertTrue(str_starts_with((string) $e->requestId, 'req_'), 'request id');
        self::assertTrue($e instanceof CrmError, 'a CrmError');
    }

    public function testPermission(): void
    {
        $crm = $this->client();
        $key = $crm->apiKeys->create(['name' => 'read only', 'scopes' => ['leads:read']]);
        $e = self::assertThrows(PermissionError::class, fn () => $crm->leads->create(['first_name' => 'x'], ['api_key' => $key->secret]));
        self::assertSame('insufficient_scope', $e->errorCode, 'code');
    }

    public function testNotFound(): void
    {
        $e = self::assertThrows(NotFoundError::class, fn () => $this->client()->deals->retrieve('deal_doesnotexist'));
        self::assertSame(404, $e->getStatus(), 'status');
        self::assertTrue(str_contains($e->getBody(), 'not_found'), 'the raw body');
    }

    public function testConflict(): void
    {
        $crm = $this->client();
        $deal = $crm->deals->create(['title' => 't', 'value' => 1, 'currency' => 'EUR', 'stage' => 'won']);
        $e = self::assertThrows(ConflictError::class, fn () => $crm->deals->lose($deal->id));
        self::assertSame('invalid_transition', $e->errorCode, 'code');
    }

    public function testIdempotency(): void
    {
        $crm = $this->client();
        $key = self::unique('reuse-');
        $crm->leads->create(['first_name' => 'one'], ['idempotency_key' => $key]);
        $e = self::assertThrows(IdempotencyError::class, fn () => $crm->leads->create(['first_name' => 'two'], ['idempotency_key' => $key]));
        self::assertSame('idempotency_key_reused', $e->errorCode, 'code');
    }

    public function testValidation(): void
    {
        $e = self::assertThrows(ValidationError::class, fn () => $this->client()->leads->create(['email' => 'not-an-email']));
        self::assertSame(422, $e->status, 'status');
        self::assertSame('email', $e->errors[0]['path'] ?? null, 'the field at fault');
    }

    public function testRateLimit(): void
    {
        $crm = new Client(['api_key' => $this->limited->apiKey, 'base_url' => $this->limited->baseUrl, 'max_retries' => 0]);
        $e = self::assertThrows(RateLimitError::class, function () use ($crm): void {
            for ($i = 0; $i < 20; $i++) {
                $crm->usage->retrieve();
            }
        });
        self::assertSame(429, $e->status, 'status');
        self::assertTrue($e->retryAfter !== null && $e->retryAfter > 0 && $e->retryAfter <= 2, 'retry after');
    }

    public function testApiError(): void
    {
        $this->armFault('GET', '/v1/invoices', 500, 1);
        $e = self::assertThrows(ApiError::class, fn () => $this->client()->invoices->list([], ['max_retries' => 0]));
        self::assertSame(500, $e->status, 'status');
        self::assertSame('internal_error', $e->errorCode, 'code');
    }

    public function testConnection(): void
    {
        $crm = new Client(['api_key' => 'crm_test_x', 'base_url' => 'http://127.0.0.1:9', 'max_retries' => 0]);
        $e = self::assertThrows(ConnectionError::class, fn () => $crm->leads->retrieve('lead_x'));
        self::assertSame(0, $e->status, 'no status');
    }
}
