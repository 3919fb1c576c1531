<?php

namespace Crm;

use Crm\Service\ServiceProperties;

/**
 * A client of the crm API: `new \Crm\Client(['api_key' => …, 'base_url' => …])`, then
 * `$crm->leads->create([...])`. The resource services are its properties (generated, see
 * Service/ServiceProperties.php); the HTTP work is Requestor's.
 */
final class Client
{
    use ServiceProperties;

    public const VERSION = '0.1.0';
    public const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

    private const OPTIONS = ['api_key', 'base_url', 'max_retries', 'timeout'];

    private Requestor $requestor;

    /**
     * @param array{api_key?: string, base_url?: string, max_retries?: int, timeout?: float} $options
     *   api_key falls back to CRM_API_KEY, base_url to CRM_BASE_URL then http://127.0.0.1:4010;
     *   max_retries defaults to 2, timeout (seconds, per attempt) to 60.
     */
    public function __construct(array $options = [])
    {
        $unknown = array_diff(array_keys($options), self::OPTIONS);
        if ($unknown !== []) {
            throw new \InvalidArgumentException('Unknown client option(s): ' . implode(', ', $unknown)
                . '; known: ' . implode(', ', self::OPTIONS));
        }
        $apiKey = $options['api_key'] ?? (getenv('CRM_API_KEY') ?: null);
        $baseUrl = $options['base_url'] ?? (getenv('CRM_BASE_URL') ?: self::DEFAULT_BASE_URL);
        $this->requestor = new Requestor(
            $apiKey,
            rtrim($baseUrl, '/'),
            $options['max_retries'] ?? 2,
            (float) ($options['timeout'] ?? 60),
        );
        $this->initServices($this->requestor);
    }

    public function getBaseUrl(): string
    {
        return $this->requestor->baseUrl;
    }

    /**
     * Reaches any endpoint with the client's authentication, idempotency and retries.
     * Returns the response (decoded JSON in ->json); a non-2xx answer throws a CrmError.
     *
     * @param array<string, mixed>|null $body
     * @param array{idempotency_key?: string, api_key?: string, max_retries?: int, timeout?: float, headers?: array<string, string>} $opts
     */
    public function rawRequest(string $method, string $path, ?array $body = null, array $opts = []): ApiResponse
    {
        return $this->requestor->request(strtoupper($method), $path, $body, $opts);
    }
}
