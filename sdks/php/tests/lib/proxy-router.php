<?php
// Router of `php -S` used as a recording proxy: notes each request's method, Idempotency-Key and
// User-Agent in CRM_PROXY_LOG (one JSON line each), forwards it to CRM_PROXY_TARGET and relays the answer.

$headers = getallheaders();
$lower = array_change_key_case($headers, CASE_LOWER);
file_put_contents(getenv('CRM_PROXY_LOG'), json_encode([
    'method' => $_SERVER['REQUEST_METHOD'],
    'idempotency_key' => $lower['idempotency-key'] ?? null,
    'user_agent' => $lower['user-agent'] ?? null,
]) . "\n", FILE_APPEND | LOCK_EX);

$forward = [];
foreach ($headers as $name => $value) {
    if (!in_array(strtolower($name), ['host', 'connection', 'content-length'], true)) {
        $forward[] = "$name: $value";
    }
}
$forward[] = 'Connection: close';
$context = stream_context_create(['http' => [
    'method' => $_SERVER['REQUEST_METHOD'],
    'header' => implode("\r\n", $forward),
    'content' => file_get_contents('php://input'),
    'ignore_errors' => true,
    'follow_location' => 0,
]]);
$body = file_get_contents(getenv('CRM_PROXY_TARGET') . $_SERVER['REQUEST_URI'], false, $context);
foreach ($http_response_header as $i => $line) {
    if ($i === 0) {
        preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $m);
        http_response_code((int) $m[1]);
    } elseif (!preg_match('/^(transfer-encoding|connection|content-length):/i', $line)) {
        header($line, false);
    }
}
echo $body;
