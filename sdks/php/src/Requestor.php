<?php

namespace Crm;

/**
 * Sends requests over PHP streams (no curl): authentication, Idempotency-Key on every write (the
 * caller's or a fresh UUID v4, the same on each retry), retries of network errors, 408,
 * 409 idempotency_key_in_use, 429 and 5xx honouring Retry-After, else jittered exponential
 * backoff from 0.5 s to 8 s, and errors as CrmError subclasses.
 *
 * @internal used by Client and the services
 */
final class Requestor
{
    private const REQUEST_OPTIONS = ['idempotency_key', 'api_key', 'max_retries', 'timeout', 'headers'];
    private const WRITES = ['POST', 'PATCH', 'DELETE'];

    private string $userAgent;

    public function __construct(
        private readonly ?string $apiKey,
        public readonly string $baseUrl,
        private readonly int $maxRetries,
        private readonly float $timeout,
    ) {
        $this->userAgent = 'crm-sdk-php/' . Client::VERSION . ' (php ' . PHP_VERSION . ')';
    }

    /**
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $opts per-request options (REQUEST_OPTIONS)
     */
    public function request(string $method, string $path, ?array $body = null, array $opts = []): ApiResponse
    {
        return $this->send($method, $path, $body, $opts, false)[0];
    }

    /**
     * A streamed method's answer: its response (headers) and its body, open, to be read as it
     * arrives (EventStream) and closed by the caller. An error answer throws, after retries, as request() does.
     *
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $opts
     * @return array{ApiResponse, resource}
     */
    public function stream(string $method, string $path, ?array $body = null, array $opts = []): array
    {
        return $this->send($method, $path, $body, $opts, true);
    }

    /**
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $opts
     * @return array{ApiResponse, resource|null}
     */
    private function send(string $method, string $path, ?array $body, array $opts, bool $stream): array
    {
        $unknown = array_diff(array_keys($opts), self::REQUEST_OPTIONS);
        if ($unknown !== []) {
            throw new \InvalidArgumentException('Unknown request option(s): ' . implode(', ', $unknown)
                . '; known: ' . implode(', ', self::REQUEST_OPTIONS));
        }
        $apiKey = $opts['api_key'] ?? $this->apiKey;
        if ($apiKey === null || $apiKey === '') {
            throw new AuthenticationError('No API key: pass api_key to new \Crm\Client([...]) or set CRM_API_KEY.');
        }
        $maxRetries = $opts['max_retries'] ?? $this->maxRetries;
        $timeout = (float) ($opts['timeout'] ?? $this->timeout);
        $headers = [
            'Authorization' => 'Bearer ' . $apiKey,
            'Accept' => $stream ? 'text/event-stream' : 'application/json',
            'User-Agent' => $this->userAgent,
            'Connection' => 'close',
        ];
        $payload = null;
        if ($body !== null) {
            $payload = json_encode((object) $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION);
            $headers['Content-Type'] = 'application/json';
        }
        if (in_array($method, self::WRITES, true)) {
            $headers['Idempotency-Key'] = $opts['idempotency_key'] ?? self::uuid4();
        }
        foreach ($opts['headers'] ?? [] as $name => $value) {
            $headers[$name] = (string) $value;
        }
        foreach ($headers as $name => $value) {
            // A line break would smuggle a header (or a request) into the stream context's raw lines.
            if (preg_match('/[\r\n]/', $name . $value) || !preg_match('/^[A-Za-z0-9!#$%&\'*+.^_`|~-]+$/', (string) $name)) {
                throw new \InvalidArgumentException("Invalid HTTP header: $name");
            }
        }

        for ($attempt = 0; ; $attempt++) {
            try {
                [$response, $open] = $this->attempt($method, $this->baseUrl . $path, $headers, $payload, $timeout, $stream);
                if ($response->status < 300) {
                    return [$response, $open];
                }
                $error = CrmError::fromResponse($response);
            } catch (ConnectionError $e) {
                $error = $e;
            }
            if ($attempt >= $maxRetries || !self::shouldRetry($error)) {
                throw $error;
            }
            usleep((int) (self::retryDelay($attempt, $error) * 1_000_000));
        }
    }

    /**
     * One attempt. With $keepOpen, a 2xx answer's body is left open and returned beside it; the
     * context's timeout is then how long each read waits (between two events), not the whole stream.
     *
     * @param array<string, string> $headers
     * @return array{ApiResponse, resource|null}
     */
    private function attempt(string $method, string $url, array $headers, ?string $payload, float $timeout, bool $keepOpen): array
    {
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        $context = stream_context_create(['http' => [
            'method' => $method,
            'header' => implode("\r\n", $lines),
            'content' => $payload ?? '',
            'timeout' => $timeout,
            'ignore_errors' => true,   // read 4xx/5xx bodies instead of failing
            'follow_location' => 0,
            // A stream is asked for over HTTP/1.0, so that the server ends it by closing the connection:
            // over 1.1 it comes chunked, and PHP's dechunking reads on to the connection's close
            // (seconds after the last event, on a kept-alive connection), in 8 KiB reads.
            'protocol_version' => $keepOpen ? 1.0 : 1.1,
        ]]);
        $previous = set_error_handler(static fn () => true);
        try {
            error_clear_last();
            $stream = fopen($url, 'rb', false, $context);
            if ($stream === false) {
                $reason = error_get_last()['message'] ?? 'no response';
                throw new ConnectionError("$method $url: $reason");
            }
            [$status, $responseHeaders] = self::parseHeaders(stream_get_meta_data($stream)['wrapper_data'] ?? []);
            if ($keepOpen && $status >= 200 && $status < 300) {
                return [new ApiResponse($status, $responseHeaders, '', null), $stream];
            }
            $raw = stream_get_contents($stream);
            $meta = stream_get_meta_data($stream);
            fclose($stream);
        } finally {
            set_error_handler($previous);
        }
        if ($raw === false || !empty($meta['timed_out'])) {
            throw new ConnectionError("$method $url: timed out after {$timeout} s");
        }
        if ($status === 0) {
            throw new ConnectionError("$method $url: no HTTP status line in the response");
        }
        $json = null;
        if ($raw !== '') {
            try {
                $json = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
            } catch (\JsonException) {
                $json = null;
            }
        }
        return [new ApiResponse($status, $responseHeaders, $raw, $json), null];
    }

    /**
     * @param list<string> $lines the stream's wrapper_data
     * @return array{int, array<string, string>}
     */
    private static function parseHeaders(array $lines): array
    {
        $status = 0;
        $headers = [];
        foreach ($lines as $line) {
            if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $m)) {
                $status = (int) $m[1];
                $headers = [];   // a later status line starts a new response
                continue;
            }
            $colon = strpos($line, ':');
            if ($colon !== false) {
                $headers[strtolower(trim(substr($line, 0, $colon)))] = trim(substr($line, $colon + 1));
            }
        }
        return [$status, $headers];
    }

    private static function shouldRetry(CrmError $error): bool
    {
        if ($error instanceof ConnectionError) {
            return true;
        }
        $status = $error->status;
        return $status === 408 || $status === 429 || $status >= 500
            || ($status === 409 && $error->errorCode === 'idempotency_key_in_use');
    }

    /** Seconds to wait: Retry-After (up to a minute), else 0.5·2^attempt capped at 8, minus up to 25% jitter. */
    private static function retryDelay(int $attempt, CrmError $error): float
    {
        $retryAfter = $error->getResponse()?->header('retry-after');
        if ($retryAfter !== null) {
            if (is_numeric($retryAfter) && (float) $retryAfter >= 0 && (float) $retryAfter <= 60) {
                return (float) $retryAfter;
            }
            $at = strtotime($retryAfter);
            if ($at !== false && $at - time() <= 60) {
                return max(0.0, (float) ($at - time()));
            }
        }
        $delay = min(8.0, 0.5 * (2 ** $attempt));
        return $delay * (1 - 0.25 * (random_int(0, 1000) / 1000));
    }

    public static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
