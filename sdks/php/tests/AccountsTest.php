<?php

declare(strict_types=1);

namespace Crm\Tests;

final class AccountsTest extends TestCase
{
    public function testApiKeysOAuthAppsAndUsage(): void
    {
        $crm = $this->client();
        $key = $crm->apiKeys->create(['name' => 'reader', 'scopes' => ['leads:read']]);
        self::assertTrue(str_starts_with($key->secret, 'crm_test_'), 'the secret, once');
        self::assertSame($key->last4, $crm->apiKeys->retrieve($key->id)->last4, 'retrieved');
        $ids = array_map(fn ($k) => $k->id, iterator_to_array($crm->apiKeys->list()->autoPagingIterator(), false));
        self::assertTrue(in_array($key->id, $ids, true), 'listed');
        self::assertTrue($crm->apiKeys->delete($key->id)->revoked_at !== null, 'revoked');

        $app = $crm->oauthApps->create(['name' => 'PHP app', 'redirect_uris' => ['http://localhost/cb'], 'scopes' => ['leads:read']]);
        self::assertTrue($app->client_secret !== '' && $app->client_id !== '', 'app credentials');
        $ids = array_map(fn ($a) => $a->id, iterator_to_array($crm->oauthApps->list()->autoPagingIterator(), false));
        self::assertTrue(in_array($app->id, $ids, true), 'app listed');

        $usage = $crm->usage->retrieve();
        self::assertTrue($usage->totals->requests > 0, 'usage totals');
        self::assertTrue(count($usage->by_endpoint) > 0, 'usage by endpoint');
    }
}
