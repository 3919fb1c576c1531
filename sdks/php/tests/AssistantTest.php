<?php

declare(strict_types=1);

namespace Crm\Tests;

use Crm\ApiError;
use Crm\Model\AssistantStreamEvent;
use Crm\ServerSentEvents;

/**
 * $crm->assistant through the PHP SDK: a sandbox whose assistant talks to the scripted model
 * provider (FakeProvider), started once for these tests, and the main sandbox, without a provider.
 */
final class AssistantTest extends TestCase
{
    private static ?FakeProvider $fake = null;
    private static ?Sandbox $assisted = null;

    private function assisted(): \Crm\Client
    {
        if (self::$assisted === null) {
            self::$fake = FakeProvider::start();
            self::$assisted = Sandbox::start(['--no-seed', ...self::$fake->sandboxArgs()]);
            register_shutdown_function(static function (): void {
                self::$fake?->stop(); // first: a turn still waiting on it (the timeout test) would hold the sandbox's stop
                self::$assisted?->stop();
            });
        }
        return new \Crm\Client(['api_key' => self::$assisted->apiKey, 'base_url' => self::$assisted->baseUrl]);
    }

    /** @param iterable<AssistantStreamEvent> $events */
    private static function text(iterable $events): string
    {
        $text = '';
        foreach ($events as $event) {
            $text .= $event->type === 'text' ? $event->delta : '';
        }
        return $text;
    }

    /**
     * @param list<AssistantStreamEvent> $events
     */
    private static function first(array $events, string $type): ?AssistantStreamEvent
    {
        foreach ($events as $event) {
            if ($event->type === $type) {
                return $event;
            }
        }
        return null;
    }

    public function testReadStreamsTextAndEndsWithDone(): void
    {
        $crm = $this->assisted();
        self::$fake->script([['text' => 'Let me look.', 'toolCalls' => [['name' => 'list_leads', 'args' => new \stdClass()]]], ['text' => 'No leads yet.']]);
        $events = iterator_to_array($crm->assistant->ask('Which leads do I have?'), false);
        self::assertTrue($events[0] instanceof AssistantStreamEvent, 'typed events');
        self::assertSame('conversation', $events[0]->type, 'first event');
        $call = self::first($events, 'tool_call');
        self::assertSame(['list_leads', true], [$call?->tool, $call?->read_only], 'the read');
        self::assertSame('Let me look.No leads yet.', self::text($events), 'text');
        $last = end($events);
        self::assertSame(['done', 'complete'], [$last->type, $last->status], 'last event');
        $id = $events[0]->conversation_id;
        $listed = [];
        foreach ($crm->assistant->conversations->list()->autoPagingIterator() as $conversation) {
            $listed[] = $conversation->id;
        }
        self::assertTrue(in_array($id, $listed, true), 'the conversation is listed');
        $conversation = $crm->assistant->conversations->retrieve($id);
        self::assertSame(['user', 'assistant', 'tool', 'assistant'], array_map(static fn ($i) => $i->type, $conversation->items), 'transcript');
    }

    public function testWriteWaitsForConfirmThenTheRecordExists(): void
    {
        $crm = $this->assisted();
        $email = self::unique('grace') . '@example.com';
        self::$fake->script([['toolCalls' => [['name' => 'create_lead', 'args' => ['first_name' => 'Grace', 'email' => $email]]]], ['text' => 'Grace is a lead now.']]);
        $asked = iterator_to_array($crm->assistant->ask("Add Grace ($email) as a lead"), false);
        $card = self::first($asked, 'confirmation_required')?->confirmation;
        self::assertSame(['create_lead', 'pending'], [$card?->tool, $card?->status], 'the proposed write');
        self::assertSame('awaiting_confirmation', end($asked)->status, 'done status');
        self::assertSame([], $crm->leads->list(['email' => $email])->data, 'no lead before confirm');

        $run = iterator_to_array($crm->assistant->confirm($card->id, true), false);
        self::assertSame(false, self::first($run, 'tool_result')?->is_error, 'the write ran');
        self::assertSame('Grace is a lead now.', self::text($run), 'text');
        self::assertSame(['Grace'], array_map(static fn ($l) => $l->first_name, $crm->leads->list(['email' => $email])->data), 'the lead');
        self::$fake->script([['text' => 'Still here.']]);
        $more = iterator_to_array($crm->assistant->ask('Anything else?', ['conversation_id' => $card->conversation_id]), false);
        self::assertSame($card->conversation_id, $more[0]->conversation_id, 'same conversation');
    }

    public function testErrorEventIsAnEventNotAnException(): void
    {
        $crm = $this->assisted();
        self::$fake->script([['toolCalls' => [['name' => 'list_leads', 'args' => new \stdClass()]]], ['status' => 503]]);
        $events = iterator_to_array($crm->assistant->ask('List, then fail'), false);
        $last = end($events);
        self::assertSame(['error', 'assistant_provider_unavailable'], [$last->type, $last->code], 'last event');
    }

    public function testEventsArriveAsMadeAndTheTimeoutIsBetweenThem(): void
    {
        $this->assisted();
        $crm = new \Crm\Client(['api_key' => self::$assisted->apiKey, 'base_url' => self::$assisted->baseUrl, 'timeout' => 2]);
        self::$fake->script([['text' => 'Let me look.', 'toolCalls' => [['name' => 'list_leads', 'args' => new \stdClass()]]], ['hang' => true]]);
        $seen = [];
        self::assertThrows(\Crm\ConnectionError::class, function () use ($crm, &$seen): void {
            foreach ($crm->assistant->ask('List, then think forever') as $event) {
                $seen[] = $event->type;
            }
        });
        self::assertSame(['conversation', 'text', 'tool_call', 'tool_result'], $seen, 'the events made before the model hung');
    }

    public function testServerSentEventsParsing(): void
    {
        $events = iterator_to_array(ServerSentEvents::parse(["\xEF\xBB\xBF: heartbeat\r\nevent: text\r\ndata: {\"a\":", "1}\r", "\ndata:  two\r\n\r\nid: 7\ndata\rdata: x\r\r"]), false);
        self::assertSame([
            ['event' => 'text', 'data' => "{\"a\":1}\n two", 'id' => null],
            ['event' => 'message', 'data' => "\nx", 'id' => '7'],
        ], $events, 'events');
        self::assertSame([], iterator_to_array(ServerSentEvents::parse(["id: 1\n\nevent: done\n\n", 'data: cut off']), false), 'nothing without data or cut off');
    }

    public function testUnconfiguredThrowsTheApiErrorBeforeAnyEvent(): void
    {
        $seen = [];
        $e = self::assertThrows(ApiError::class, function () use (&$seen): void {
            foreach ($this->client(['max_retries' => 0])->assistant->ask('Hello?') as $event) {
                $seen[] = $event;
            }
        });
        self::assertSame([503, 'assistant_not_configured'], [$e->status, $e->errorCode], 'the problem');
        self::assertSame([], $seen, 'no event');
    }
}
