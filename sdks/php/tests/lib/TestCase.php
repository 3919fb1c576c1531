<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Client;

/** The assertions the tests use; a failed one throws AssertionFailed with what was expected. */
abstract class TestCase
{
    public function __construct(protected readonly Sandbox $sandbox, protected readonly Sandbox $limited)
    {
    }

    protected function client(array $options = []): Client
    {
        return new Client($options + ['api_key' => $this->sandbox->apiKey, 'base_url' => $this->sandbox->baseUrl]);
    }

    private static int $counter = 0;

    /** A value no other test uses (emails, tags, external ids). */
    protected static function unique(string $prefix): string
    {
        return $prefix . substr((string) hrtime(true), -9) . ++self::$counter;
    }

    /** Makes the sandbox fail the next $count requests matching $method and $pathPrefix. */
    protected function armFault(string $method, string $pathPrefix, int $status, int $count): void
    {
        $this->client()->rawRequest('POST', '/_sandbox/faults', ['method' => $method, 'path_prefix' => $pathPrefix, 'status' => $status, 'count' => $count]);
    }

    protected static function assertSame(mixed $expected, mixed $actual, string $what = ''): void
    {
        if ($expected !== $actual) {
            throw new AssertionFailed(($what !== '' ? "$what: " : '') . 'expected ' . var_export($expected, true)
                . ', got ' . var_export($actual, true));
        }
    }

    protected static function assertTrue(bool $condition, string $what): void
    {
        if (!$condition) {
            throw new AssertionFailed("expected: $what");
        }
    }

    /**
     * Runs $fn and returns what it threw, which must be an instance of $class.
     *
     * @template E of \Throwable
     * @param class-string<E> $class
     * @return E
     */
    protected static function assertThrows(string $class, callable $fn): \Throwable
    {
        try {
            $fn();
        } catch (\Throwable $e) {
            if (!$e instanceof $class) {
                throw new AssertionFailed("expected $class, got " . get_class($e) . ': ' . $e->getMessage());
            }
            return $e;
        }
        throw new AssertionFailed("expected $class, nothing was thrown");
    }
}

final class AssertionFailed extends \RuntimeException
{
}
