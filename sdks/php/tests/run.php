<?php
// The PHP SDK's tests: `php sdks/php/tests/run.php` (or `npm run test:sdk:php`). Starts real sandboxes
// (bin/crm.js, node from PATH or CRM_NODE), runs every tests/*Test.php, prints one line per test and
// "N passed, N failed" last, and exits 1 when any failed.

declare(strict_types=1);

require __DIR__ . '/../init.php';
require __DIR__ . '/lib/Sandbox.php';
require __DIR__ . '/lib/TestCase.php';
require __DIR__ . '/lib/Receiver.php';
require __DIR__ . '/lib/RecordingProxy.php';
require __DIR__ . '/lib/FakeProvider.php';

use Crm\Tests\Sandbox;
use Crm\Tests\TestCase;

$filter = $argv[1] ?? null;
$main = Sandbox::start(['--rate-limit', '10000/1s']);
$limited = Sandbox::start(['--rate-limit', '2/1s']);
$passed = 0;
$failed = 0;
try {
    foreach (glob(__DIR__ . '/*Test.php') as $file) {
        require_once $file;
        $class = 'Crm\\Tests\\' . basename($file, '.php');
        foreach (get_class_methods($class) as $method) {
            if (!str_starts_with($method, 'test') || ($filter !== null && !str_contains("$class::$method", $filter))) {
                continue;
            }
            /** @var TestCase $case */
            $case = new $class($main, $limited);
            $started = microtime(true);
            try {
                $case->$method();
                $passed++;
                printf("ok   %s::%s (%.2f s)\n", basename($file, '.php'), $method, microtime(true) - $started);
            } catch (\Throwable $e) {
                $failed++;
                printf("FAIL %s::%s\n     %s: %s\n     at %s:%d\n", basename($file, '.php'), $method, get_class($e),
                    $e->getMessage(), $e->getFile(), $e->getLine());
            }
        }
    }
} finally {
    $main->stop();
    $limited->stop();
}
echo "$passed passed, $failed failed\n";
exit($failed > 0 || $passed === 0 ? 1 : 0);
