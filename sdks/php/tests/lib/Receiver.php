<?php

declare(strict_types=1);

namespace Crm\Tests;

/** A real HTTP endpoint, in this process, that the sandbox delivers webhooks to. */
final class Receiver
{
    /** @var resource */
    private $server;
    public readonly string $url;

    public function __construct()
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        if ($server === false) {
            throw new \RuntimeException("Could not listen: $errstr");
        }
        $this->server = $server;
        $this->url = 'http://' . stream_socket_get_name($server, false) . '/hooks';
    }

    /**
     * Waits for the next delivery and answers 204.
     *
     * @return array{headers: array<string, string>, body: string}
     */
    public function next(float $timeout = 30.0): array
    {
        $connection = @stream_socket_accept($this->server, $timeout);
        if ($connection === false) {
            throw new AssertionFailed("no webhook delivery within $timeout s");
        }
        stream_set_timeout($connection, 10);
        $headers = [];
        fgets($connection); // the request line
        while (($line = fgets($connection)) !== false && trim($line) !== '') {
            [$name, $value] = explode(':', $line, 2);
            $headers[strtolower(trim($name))] = trim($value);
        }
        $length = (int) ($headers['content-length'] ?? 0);
        $body = '';
        while (strlen($body) < $length && !feof($connection)) {
            $body .= fread($connection, $length - strlen($body));
        }
        fwrite($connection, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
        fclose($connection);
        return ['headers' => $headers, 'body' => $body];
    }

    public function close(): void
    {
        fclose($this->server);
    }
}
