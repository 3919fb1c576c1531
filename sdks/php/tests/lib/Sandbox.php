<?php

declare(strict_types=1);

namespace Crm\Tests;

/** A real `crm sandbox start --port 0 --json --db :memory:` process of this repository. */
final class Sandbox
{
    /** @param resource $process */
    private function __construct(public readonly string $baseUrl, public readonly string $apiKey, private $process)
    {
    }

    /** @param list<string> $args */
    public static function start(array $args = []): self
    {
        $node = getenv('CRM_NODE') ?: 'node';
        $bin = realpath(__DIR__ . '/../../../../bin/crm.js');
        if ($bin === false) {
            throw new \RuntimeException('bin/crm.js not found next to sdks/php');
        }
        $command = array_merge([$node, $bin, 'sandbox', 'start', '--port', '0', '--json', '--db', ':memory:'], $args);
        $env = getenv();
        $env['NO_COLOR'] = '1';
        unset($env['CRM_API_KEY'], $env['CRM_BASE_URL']);
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes, null, $env);
        if (!is_resource($process)) {
            throw new \RuntimeException('Could not start the sandbox: ' . implode(' ', $command));
        }
        fclose($pipes[0]);
        stream_set_timeout($pipes[1], 60);
        $line = fgets($pipes[1]);
        if ($line === false) {
            proc_terminate($process);
            throw new \RuntimeException('The sandbox printed nothing: ' . implode(' ', $command));
        }
        $ready = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
        return new self($ready['base_url'], $ready['api_key'], $process);
    }

    public function stop(): void
    {
        proc_terminate($this->process, 15);
        proc_close($this->process);
    }
}
