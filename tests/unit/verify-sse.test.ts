import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStreamReader, type StreamFacts } from '../../src/verify/sse.ts';
import { classifyRequest, type VerifyOutcome } from '../../src/verify/outcome.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feed `parts` in order and return the facts and how many times the first-token callback ran. */
function read(parts: Uint8Array[]): { facts: StreamFacts; firstTokens: number } {
  let firstTokens = 0;
  const reader = createStreamReader(() => {
    firstTokens++;
  });
  for (const p of parts) reader.feed(p);
  return { facts: reader.end(), firstTokens };
}

/** Every way of cutting the stream into two pieces, plus one byte at a time. */
function splits(stream: Uint8Array): Uint8Array[][] {
  const all: Uint8Array[][] = [];
  for (let i = 0; i <= stream.length; i++) all.push([stream.subarray(0, i), stream.subarray(i)]);
  all.push([...stream].map((b) => Uint8Array.of(b)));
  return all;
}

/** Assert the same facts and outcome for every split of the stream. */
function expectEverySplit(
  text: string,
  expected: Partial<StreamFacts>,
  outcome: VerifyOutcome,
  firstTokens: number,
): void {
  const stream = bytes(text);
  for (const parts of splits(stream)) {
    const { facts, firstTokens: n } = read(parts);
    const at = parts.length === 2 ? `split at byte ${parts[0].length}` : 'byte by byte';
    for (const [key, value] of Object.entries(expected))
      assert.deepEqual(facts[key as keyof StreamFacts], value, `${key}, ${at}`);
    assert.equal(n, firstTokens, `first-token callbacks, ${at}`);
    assert.equal(classifyRequest({ status: 200, timedOut: false, stream: facts }), outcome, `outcome, ${at}`);
  }
}

test('a completion with comments, a keep-alive, CRLF line ends and multi-byte text is ok at every split', () => {
  const text =
    ': connected\n\n'
    + 'data: {"choices":[{"index":0,"text":"Caf\u00e9 \u{1F600}"}]}\r\n\r\n'
    + ':\n\n'
    + 'data: {"choices":[{"index":0,"text":" \u00fcber"}]}\n\n'
    + 'data: {"choices":[{"index":0,"text":"","finish_reason":"length"}]}\n\n'
    + 'data: [DONE]\n\n';
  // 4 events (the comments are not events); two carried text; the first-token callback runs once.
  expectEverySplit(
    text,
    { events: 4, tokenEvents: 2, done: true, finishReason: 'length', error: null, malformed: 0 },
    'ok',
    1,
  );
});

test('a chat stream that ends with a finish reason but no [DONE] is ok; the role-only delta is not a token', () => {
  const text =
    'data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n'
    + 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'
    + 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n';
  expectEverySplit(text, { events: 3, tokenEvents: 1, done: false, finishReason: 'stop' }, 'ok', 1);
});

test('data split over several data: lines is one event', () => {
  const text = 'data: {"choices":\ndata: [{"index":0,"text":"a"}]}\n\ndata: [DONE]\n\n';
  expectEverySplit(text, { events: 2, tokenEvents: 1, done: true, malformed: 0 }, 'ok', 1);
});

test('an error object in the stream makes the request aborted, even after [DONE]', () => {
  const text =
    'data: {"choices":[{"index":0,"text":"a"}]}\n\n'
    + 'data: {"error":{"message":"Request aborted: server shutting down","type":"server_shutdown"}}\n\n'
    + 'data: [DONE]\n\n';
  expectEverySplit(text, { error: 'Request aborted: server shutting down', done: true }, 'aborted', 1);
});

test('an SSE error event with plain-text data is aborted', () => {
  expectEverySplit('event: error\ndata: engine dead\n\n', { error: 'engine dead', tokenEvents: 0 }, 'aborted', 0);
});

test('the abort finish reason is aborted', () => {
  const text =
    'data: {"choices":[{"index":0,"text":"a"}]}\n\ndata: {"choices":[{"index":0,"text":"","finish_reason":"abort"}]}\n\ndata: [DONE]\n\n';
  expectEverySplit(text, { finishReason: 'abort', done: true }, 'aborted', 1);
});

test('a stream that stops mid-way, or whose [DONE] is not terminated by a blank line, is cut', () => {
  expectEverySplit(
    'data: {"choices":[{"index":0,"text":"a"}]}\n\ndata: {"choices":[{"ind',
    { events: 1, done: false },
    'cut',
    1,
  );
  // SSE drops an event the stream ends inside of, so a [DONE] line without its blank line does not count.
  expectEverySplit(
    'data: {"choices":[{"index":0,"text":"a"}]}\n\ndata: [DONE]\n',
    { events: 1, done: false },
    'cut',
    1,
  );
});

test('keep-alives alone are cut, not ok', () => {
  expectEverySplit(': ping\n\n: ping\n\n', { events: 0, tokenEvents: 0 }, 'cut', 0);
});

test('data that is neither JSON nor [DONE] is counted as malformed: a client cannot read the stream, so it is unreadable', () => {
  expectEverySplit('data: hello\n\n', { events: 1, malformed: 1, error: null }, 'unreadable', 0);
  // Issue 31: five malformed events, then [DONE], was counted ok; a real client fails at the first one.
  const five = read([bytes(`${'data: {not json\n\n'.repeat(5)}data: [DONE]\n\n`)]).facts;
  assert.deepEqual([five.malformed, five.done], [5, true]);
  assert.equal(classifyRequest({ status: 200, timedOut: false, stream: five }), 'unreadable');
  // An error event still names the cause: aborted, before unreadable.
  const both = read([
    bytes('data: {not json\n\nevent: error\ndata: {"error":"engine dead"}\n\ndata: [DONE]\n\n'),
  ]).facts;
  assert.equal(classifyRequest({ status: 200, timedOut: false, stream: both }), 'aborted');
});

test('status and timeout decide before the stream does', () => {
  const done = read([bytes('data: [DONE]\n\n')]).facts;
  assert.equal(classifyRequest({ status: 200, timedOut: false, stream: done }), 'ok');
  assert.equal(classifyRequest({ status: 503, timedOut: false, stream: done }), 'refused');
  assert.equal(classifyRequest({ status: 429, timedOut: false, stream: done }), 'refused');
  assert.equal(classifyRequest({ status: undefined, timedOut: false, stream: done }), 'refused');
  assert.equal(classifyRequest({ status: 200, timedOut: true, stream: done }), 'timeout');
  assert.equal(classifyRequest({ status: undefined, timedOut: true, stream: done }), 'timeout');
});

test('an event longer than 1 MiB is an error of the stream', () => {
  const huge = `data: {"choices":[{"index":0,"text":"${'x'.repeat(2 << 20)}"}]}\n\n`;
  // In pieces, as a network delivers it: the parser buffers the event until it grows past the limit.
  const stream = bytes(huge);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < stream.length; i += 65536) pieces.push(stream.subarray(i, i + 65536));
  const { facts } = read([...pieces, bytes('data: [DONE]\n\n')]);
  assert.equal(facts.error, 'an event longer than 1 MiB');
  assert.equal(facts.done, false);
  assert.equal(classifyRequest({ status: 200, timedOut: false, stream: facts }), 'aborted');
});
