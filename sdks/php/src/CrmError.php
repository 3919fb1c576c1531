<?php

namespace Crm;

/**
 * The base of every error the SDK throws. The family is the subclass (NotFoundError, …); the details
 * are the RFC 9457 problem the API answered. (Exception::getCode() is the HTTP status; the API's
 * error code, e.g. "invalid_transition", is $errorCode.)
 */
class CrmError extends \RuntimeException
{
    /** @var int the HTTP status; 0 when no response came */
    public readonly int $status;
    public readonly ?string $errorCode;
    public readonly ?string $requestId;
    /** @var list<array{path: string, code: string, message: string}> validation details */
    public readonly array $errors;
    /** @var string the raw response body */
    public readonly string $body;
    private ?ApiResponse $response;

    public function __construct(string $message, ?ApiResponse $response = null, ?\Throwable $previous = null)
    {
        parent::__construct($message, $response?->status ?? 0, $previous);
        $problem = is_array($response?->json) ? $response->json : [];
        $this->response = $response;
        $this->status = $response?->status ?? 0;
        $this->errorCode = isset($problem['code']) && is_string($problem['code']) ? $problem['code'] : null;
        $this->requestId = $problem['request_id'] ?? $response?->requestId();
        $this->errors = isset($problem['errors']) && is_array($problem['errors']) ? $problem['errors'] : [];
        $this->body = $response?->body ?? '';
    }

    /** Makes the error of the family the response's status and code belong to. */
    public static function fromResponse(ApiResponse $response): self
    {
        $problem = is_array($response->json) ? $response->json : [];
        $code = is_string($problem['code'] ?? null) ? $problem['code'] : '';
        $message = $problem['detail'] ?? $problem['title'] ?? ('HTTP ' . $response->status);
        if ($code !== '') {
            $message .= " ($code)";
        }
        $status = $response->status;
        $class = match (true) {
            str_starts_with($code, 'idempotency_key_') => IdempotencyError::class,
            $status === 401 => AuthenticationError::class,
            $status === 402 => PlanLimitError::class,
            $status === 403 => PermissionError::class,
            $status === 404 => NotFoundError::class,
            $status === 409 => ConflictError::class,
            $status === 400, $status === 422 => ValidationError::class,
            $status === 429 => RateLimitError::class,
            default => ApiError::class,
        };
        return new $class($message, $response);
    }

    public function getStatus(): int
    {
        return $this->status;
    }

    public function getErrorCode(): ?string
    {
        return $this->errorCode;
    }

    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /** @return list<array{path: string, code: string, message: string}> */
    public function getErrors(): array
    {
        return $this->errors;
    }

    public function getBody(): string
    {
        return $this->body;
    }

    /** The response the error came from; null for a ConnectionError. */
    public function getResponse(): ?ApiResponse
    {
        return $this->response;
    }
}
