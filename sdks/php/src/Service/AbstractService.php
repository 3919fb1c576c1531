<?php

namespace Crm\Service;

use Crm\ApiResponse;
use Crm\Collection;
use Crm\CrmError;
use Crm\Model;
use Crm\Requestor;
use Crm\ServerSentEvents;

/** What the generated services share: a request that returns a model, one that returns a page, and a stream of events. */
abstract class AbstractService
{
    public function __construct(protected readonly Requestor $requestor)
    {
    }

    /**
     * @template T of Model
     * @param class-string<T> $class
     * @param array<string, mixed>|null $body
     * @param array<string, mixed> $query
     * @return T
     */
    protected function request(string $method, string $path, ?array $body, array $opts, string $class, array $query = []): Model
    {
        $response = $this->requestor->request($method, $path . self::query($query), $body, $opts);
        return $class::constructFrom(is_array($response->json) ? $response->json : [], $response);
    }

    /**
     * @template T of Model
     * @param class-string<T> $class the item class
     * @param array<string, mixed> $query
     * @return Collection<T>
     */
    protected function requestList(string $path, array $query, array $opts, string $class): Collection
    {
        $response = $this->requestor->request('GET', $path . self::query($query), null, $opts);
        $json = is_array($response->json) ? $response->json : [];
        $items = array_map(static fn (array $item) => $class::constructFrom($item), $json['data'] ?? []);
        $next = $json['next_cursor'] ?? null;
        $fetch = fn (string $cursor): Collection => $this->requestList($path, ['cursor' => $cursor] + $query, $opts, $class);
        return new Collection($items, $next, $response, \Closure::fromCallable($fetch));
    }

    /**
     * A streamed method's events, typed, as they arrive. Nothing is sent before the generator is
     * first used (foreach), so an error answer (problem+json: 503, 502, 404, …) throws its CrmError
     * there, before any event. An `error` event is yielded like the others (the stream ends after
     * it), not thrown. Leaving the loop early and dropping the generator closes the HTTP response.
     *
     * @template T of Model
     * @param class-string<T> $class the event class
     * @param array<string, mixed> $body
     * @return \Generator<int, T>
     */
    protected function requestStream(string $method, string $path, array $body, array $opts, string $class): \Generator
    {
        [$response, $stream] = $this->requestor->stream($method, $path, $body, $opts);
        try {
            foreach (ServerSentEvents::parse(ServerSentEvents::chunks($stream)) as $message) {
                try {
                    $event = json_decode($message['data'], true, 512, JSON_THROW_ON_ERROR);
                } catch (\JsonException $e) {
                    throw new CrmError("The server sent an event that is not JSON (event: {$message['event']}): " . substr($message['data'], 0, 200), null, $e);
                }
                yield $class::constructFrom(is_array($event) ? $event : [], $response);
            }
        } finally {
            fclose($stream);
        }
    }

    /** A path with its ids escaped: path('/v1/leads/%s', $id). */
    protected static function path(string $template, string ...$ids): string
    {
        return sprintf($template, ...array_map('rawurlencode', $ids));
    }

    /** @param array<string, mixed> $query */
    private static function query(array $query): string
    {
        $pairs = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            if (is_bool($value)) {
                $value = $value ? 'true' : 'false';
            }
            $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode((string) $value);
        }
        return $pairs === [] ? '' : '?' . implode('&', $pairs);
    }
}
