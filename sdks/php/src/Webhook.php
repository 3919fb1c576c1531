<?php

namespace Crm;

use Crm\Model\Event;

/** Standard Webhooks signatures, as the sandbox sends them (webhook-id, webhook-timestamp, webhook-signature). */
final class Webhook
{
    /** Seconds a webhook's timestamp may be away from now. */
    public const TOLERANCE = 300;

    /**
     * Checks the signature (any listed v1 signature may match, compared in constant time) and the
     * timestamp, and returns the event. Throws SignatureVerificationError.
     *
     * @param array<string, string|list<string>> $headers any case, e.g. getallheaders() or a PSR-7 getHeaders()
     * @param int|null $now Unix seconds (default: the current time)
     */
    public static function verify(string $secret, array $headers, string $rawBody, ?int $now = null): Event
    {
        $lower = [];
        foreach ($headers as $name => $value) {
            $lower[strtolower((string) $name)] = is_array($value) ? implode(' ', $value) : (string) $value;
        }
        $id = $lower['webhook-id'] ?? '';
        $timestamp = $lower['webhook-timestamp'] ?? '';
        $signatures = $lower['webhook-signature'] ?? '';
        if ($id === '' || $timestamp === '' || $signatures === '') {
            throw new SignatureVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
        }
        if (!ctype_digit(trim($timestamp))) {
            throw new SignatureVerificationError('The webhook-timestamp header is not a number of seconds.');
        }
        $sent = (int) trim($timestamp);
        $now ??= time();
        if ($now - $sent > self::TOLERANCE) {
            throw new SignatureVerificationError('The webhook timestamp is too old.');
        }
        if ($sent - $now > self::TOLERANCE) {
            throw new SignatureVerificationError('The webhook timestamp is too far in the future.');
        }
        $expected = self::mac($secret, $id, $sent, $rawBody);
        $matched = false;
        foreach (preg_split('/\s+/', trim($signatures)) as $candidate) {
            [$version, $value] = array_pad(explode(',', $candidate, 2), 2, '');
            if ($version === 'v1' && hash_equals($expected, (string) base64_decode($value, true))) {
                $matched = true;
            }
        }
        if (!$matched) {
            throw new SignatureVerificationError('No signature matches the secret and body.');
        }
        try {
            $event = json_decode($rawBody, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            throw new SignatureVerificationError('The signed body is not JSON: ' . $e->getMessage(), null, $e);
        }
        if (!is_array($event)) {
            throw new SignatureVerificationError('The signed body is not an event object.');
        }
        return Event::constructFrom($event);
    }

    /** The webhook-signature value ("v1,<base64>") for a body, as the sandbox makes it (for your tests). */
    public static function sign(string $secret, string $id, int $timestamp, string $body): string
    {
        return 'v1,' . base64_encode(self::mac($secret, $id, $timestamp, $body));
    }

    private static function mac(string $secret, string $id, int $timestamp, string $body): string
    {
        $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
        if ($key === false || $key === '') {
            throw new SignatureVerificationError('The webhook secret is not whsec_ followed by base64.');
        }
        return hash_hmac('sha256', "$id.$timestamp.$body", $key, true);
    }
}
