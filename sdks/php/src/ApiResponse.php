<?php

namespace Crm;

/** The HTTP response behind a returned object: `$lead->getLastResponse()`. */
final class ApiResponse
{
    /**
     * @param array<string, string> $headers lower-case names
     * @param mixed $json the decoded body (null when it is not JSON)
     */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
        public readonly mixed $json,
    ) {
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }

    /** The X-Request-Id (req_…), to quote when asking about a request. */
    public function requestId(): ?string
    {
        return $this->header('x-request-id');
    }

    /** True when the server replayed a stored answer for a repeated Idempotency-Key. */
    public function idempotentReplayed(): bool
    {
        return strtolower($this->header('idempotent-replayed') ?? '') === 'true';
    }

    public function rateLimitLimit(): ?int
    {
        return $this->intHeader('x-ratelimit-limit');
    }

    public function rateLimitRemaining(): ?int
    {
        return $this->intHeader('x-ratelimit-remaining');
    }

    /** Seconds until the rate-limit window resets. */
    public function rateLimitReset(): ?int
    {
        return $this->intHeader('x-ratelimit-reset');
    }

    private function intHeader(string $name): ?int
    {
        $value = $this->header($name);
        return $value !== null && is_numeric($value) ? (int) $value : null;
    }
}
