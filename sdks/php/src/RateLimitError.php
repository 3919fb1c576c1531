<?php

namespace Crm;

/** 429 rate_limited or quota_exceeded (retried first); $retryAfter is the server's Retry-After in seconds. */
class RateLimitError extends CrmError
{
    public readonly ?float $retryAfter;

    public function __construct(string $message, ?ApiResponse $response = null, ?\Throwable $previous = null)
    {
        parent::__construct($message, $response, $previous);
        $value = $response?->header('retry-after');
        $this->retryAfter = $value !== null && is_numeric($value) ? (float) $value : null;
    }
}
