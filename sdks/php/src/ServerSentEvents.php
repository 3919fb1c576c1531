<?php

namespace Crm;

/**
 * Reads an event stream as the HTML standard says: lines end in CRLF, LF or CR; a blank line
 * dispatches the event; `:` starts a comment (a heartbeat); `data:` lines join with a line feed;
 * one space after the colon is dropped; an event cut off before its blank line is not dispatched.
 *
 * @internal used by the services' streamed methods (AbstractService::requestStream)
 */
final class ServerSentEvents
{
    /**
     * @param iterable<string> $chunks the body as it arrives
     * @return \Generator<int, array{event: string, data: string, id: ?string}>
     */
    public static function parse(iterable $chunks): \Generator
    {
        $buffer = '';
        $first = true;
        $event = '';
        $data = [];
        $id = null;
        foreach (self::thenEnd($chunks) as $chunk) {
            $done = $chunk === null;
            $buffer .= $chunk ?? '';
            if ($first && $buffer !== '') {
                if (str_starts_with($buffer, "\xEF\xBB\xBF")) {
                    $buffer = substr($buffer, 3);
                }
                $first = false;
            }
            while (($end = strcspn($buffer, "\r\n")) < strlen($buffer)) {
                // A CR last in the buffer may be the first half of a CRLF: wait for the next chunk.
                if (!$done && $buffer[$end] === "\r" && $end === strlen($buffer) - 1) {
                    break;
                }
                $line = substr($buffer, 0, $end);
                $buffer = substr($buffer, $end + (substr($buffer, $end, 2) === "\r\n" ? 2 : 1));
                if ($line === '') {
                    if ($data !== []) { // no data (an id-only message, a lone event: line) dispatches nothing
                        yield ['event' => $event !== '' ? $event : 'message', 'data' => implode("\n", $data), 'id' => $id];
                    }
                    $event = '';
                    $data = [];
                    continue;
                }
                if ($line[0] === ':') {
                    continue;
                }
                [$field, $value] = str_contains($line, ':') ? explode(':', $line, 2) : [$line, ''];
                if (str_starts_with($value, ' ')) {
                    $value = substr($value, 1);
                }
                if ($field === 'event') {
                    $event = $value;
                } elseif ($field === 'data') {
                    $data[] = $value;
                } elseif ($field === 'id' && !str_contains($value, "\0")) {
                    $id = $value;
                }
            }
        }
    }

    /**
     * The chunks, then null: the end, where a last CR ends its line.
     *
     * @param iterable<string> $chunks
     * @return \Generator<int, ?string>
     */
    private static function thenEnd(iterable $chunks): \Generator
    {
        yield from $chunks;
        yield null;
    }

    /**
     * The chunks of an open HTTP body, as they arrive; a read that waits past the stream's timeout
     * is a ConnectionError.
     *
     * @param resource $stream
     * @return \Generator<int, string>
     */
    public static function chunks($stream): \Generator
    {
        while (!feof($stream)) {
            $chunk = fread($stream, 8192);
            if (stream_get_meta_data($stream)['timed_out']) {
                throw new ConnectionError('The stream stopped: no event within the timeout');
            }
            if ($chunk === false) {
                throw new ConnectionError('The stream stopped: the connection failed');
            }
            if ($chunk !== '') {
                yield $chunk;
            }
        }
    }
}
