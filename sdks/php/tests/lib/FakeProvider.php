<?php

declare(strict_types=1);

namespace Crm\Tests;

/**
 * The scripted model provider (scripts/fake-model-provider.mjs, over test/helpers/fake-model-provider.ts):
 * a real HTTP server speaking OpenAI's protocol, for a sandbox started with sandboxArgs().
 */
final class FakeProvider
{
    /**
     * @param resource $process
     * @param array<int, resource> $pipes
     */
    private function __construct(public readonly string $url, private readonly string $controlUrl, private $process, private array $pipes)
    {
    }

    public static function start(): self
    {
        $node = getenv('CRM_NODE') ?: 'node';
        $script = realpath(__DIR__ . '/../../../../scripts/fake-model-provider.mjs');
        if ($script === false) {
            throw new \RuntimeException('scripts/fake-model-provider.mjs not found next to sdks/php');
        }
        // Its stdin is a pipe: when this process ends, the pipe closes and the provider stops.
        $process = proc_open([$node, $script], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw new \RuntimeException('Could not start the fake model provider');
        }
        stream_set_timeout($pipes[1], 30);
        $line = fgets($pipes[1]);
        if ($line === false) {
            proc_terminate($process);
            throw new \RuntimeException('The fake model provider printed nothing');
        }
        $ready = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
        return new self($ready['url'], $ready['control_url'], $process, $pipes);
    }

    /** @return list<string> */
    public function sandboxArgs(): array
    {
        return ['--assistant-url', $this->url . '/v1', '--assistant-model', 'fake-model'];
    }

    /**
     * What the next model calls answer: ['text' => …, 'toolCalls' => [['name' => …, 'args' => […]]]] or ['status' => 503].
     *
     * @param list<array<string, mixed>> $steps
     */
    public function script(array $steps): void
    {
        $context = stream_context_create(['http' => [
            'method' => 'POST',
            'header' => 'Content-Type: application/json',
            'content' => json_encode($steps, JSON_THROW_ON_ERROR),
            'ignore_errors' => true,
        ]]);
        file_get_contents($this->controlUrl . '/script', false, $context);
        if (!str_contains($http_response_header[0] ?? '', ' 204')) {
            throw new \RuntimeException('Scripting the provider failed: ' . ($http_response_header[0] ?? 'no answer'));
        }
    }

    public function stop(): void
    {
        foreach ($this->pipes as $pipe) {
            fclose($pipe);
        }
        proc_close($this->process);
    }
}
