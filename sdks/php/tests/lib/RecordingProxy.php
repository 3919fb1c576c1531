<?php

declare(strict_types=1);

namespace Crm\Tests;

/**
 * `php -S` with proxy-router.php in front of a sandbox: a real HTTP hop that records what each
 * attempt of the SDK sent (method, Idempotency-Key, User-Agent).
 */
final class RecordingProxy
{
    /** @param resource $process */
    private function __construct(public readonly string $url, private readonly string $log, private $process)
    {
    }

    public static function start(string $target): self
    {
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $address = stream_socket_get_name($probe, false);
        fclose($probe);
        $log = tempnam(sys_get_temp_dir(), 'crm-proxy-');
        $env = getenv();
        $env['CRM_PROXY_LOG'] = $log;
        $env['CRM_PROXY_TARGET'] = $target;
        $process = proc_open([PHP_BINARY, '-S', $address, __DIR__ . '/proxy-router.php'], [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $env);
        for ($i = 0; $i < 100; $i++) {
            $socket = @stream_socket_client("tcp://$address", $errno, $errstr, 1);
            if ($socket !== false) {
                fclose($socket);
                return new self("http://$address", $log, $process);
            }
            usleep(50_000);
        }
        proc_terminate($process);
        throw new \RuntimeException("php -S did not listen on $address");
    }

    /** @return list<array{method: string, idempotency_key: ?string, user_agent: ?string}> */
    public function requests(): array
    {
        $lines = array_filter(explode("\n", (string) file_get_contents($this->log)));
        return array_values(array_map(fn (string $l) => json_decode($l, true), $lines));
    }

    public function stop(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        @unlink($this->log);
    }
}
