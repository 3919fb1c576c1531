<?php

declare(strict_types=1);

namespace Crm\Tests;

/** A real `crm sandbox start --port 0 --json --db :memory:` process of this repository. */
final class Sandbox
{
    /** @param resource $process */
    private function __construct(public readonly string $baseUrl, public readonly string $apiKey, private $process, private readonly string $log)
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
        // The sandbox logs each 5xx (the tests inject some); keep that out of the report unless it fails to start.
        $log = tempnam(sys_get_temp_dir(), 'crm-sandbox-');
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $log, 'w']], $pipes, null, $env);
        if (!is_resource($process)) {
            throw new \RuntimeException('Could not start the sandbox: ' . implode(' ', $command));
        }
        fclose($pipes[0]);
        stream_set_timeout($pipes[1], 60);
        $line = fgets($pipes[1]);
        if ($line === false) {
            proc_terminate($process);
            throw new \RuntimeException('The sandbox printed nothing: ' . implode(' ', $command) . "\n" . file_get_contents($log));
        }
        $ready = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
        return new self($ready['base_url'], $ready['api_key'], $process, $log);
    }

    public function stop(): void
    {
        proc_terminate($this->process, 15);
        proc_close($this->process);
        @unlink($this->log);
    }
}
