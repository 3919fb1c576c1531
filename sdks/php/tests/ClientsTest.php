<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\Model\Client as ClientModel;
use Crm\Model\ClientAddress;

final class ClientsTest extends TestCase
{
    public function testClientsAndContacts(): void
    {
        $crm = $this->client();
        $name = self::unique('Lovelace Labs ');
        $created = $crm->clients->create([
            'name' => $name,
            'address' => ['city' => 'London', 'country' => 'GB'],
            'contacts' => [['first_name' => 'Ada', 'is_primary' => true]],
        ]);
        self::assertTrue($created instanceof ClientModel, 'a Client');
        self::assertSame(ClientModel::KIND_COMPANY, $created->kind, 'kind');
        self::assertTrue($created->address instanceof ClientAddress, 'a typed address');
        self::assertSame('London', $created->address->city, 'city');
        self::assertSame(true, $created->contacts[0]->is_primary, 'the contact person');
        self::assertSame($name, $crm->clients->retrieve($created->id)->name, 'retrieved');
        $updated = $crm->clients->update($created->id, ['website' => 'https://lovelace.example']);
        self::assertSame('https://lovelace.example', $updated->website, 'updated');
        $found = 0;
        foreach ($crm->clients->list(['q' => 'Lovelace'])->autoPagingIterator() as $client) {
            $found += $client->id === $created->id ? 1 : 0;
        }
        self::assertSame(1, $found, 'search finds it once');

        $contact = $crm->clients->contacts->create($created->id, ['first_name' => 'Charles', 'role' => 'CTO']);
        self::assertSame($created->id, $contact->client_id, 'contact client');
        self::assertSame('Charles', $crm->clients->contacts->retrieve($created->id, $contact->id)->first_name, 'contact retrieved');
        self::assertSame('CEO', $crm->clients->contacts->update($created->id, $contact->id, ['role' => 'CEO'])->role, 'contact updated');
        self::assertSame(2, count($crm->clients->contacts->list($created->id)), 'two contacts');
        self::assertSame(true, $crm->clients->contacts->delete($created->id, $contact->id)->deleted, 'contact deleted');
        self::assertSame(true, $crm->clients->delete($created->id)->deleted, 'deleted');
    }

    public function testBulk(): void
    {
        $crm = $this->client();
        $ext = self::unique('cli-');
        $result = $crm->clients->bulk(['mode' => 'upsert', 'records' => [['name' => 'Bulk One', 'external_id' => $ext]]]);
        self::assertSame(1, $result->summary->created, 'created');
        $result = $crm->clients->bulk(['mode' => 'upsert', 'records' => [['name' => 'Bulk One renamed', 'external_id' => $ext]]]);
        self::assertSame(1, $result->summary->updated, 'updated');
    }
}
