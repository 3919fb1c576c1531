<?php
// Loads the crm SDK without Composer: `require 'sdks/php/init.php';` then `new \Crm\Client([...])`.
// Classes of the Crm\ namespace live under src/, one class per file, following PSR-4.

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'Crm\\', 4) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 4)) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
