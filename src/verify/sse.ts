/**
 * Read an OpenAI-style streamed completion: bytes in (split anywhere, even inside a UTF-8 character),
 * facts out. Event framing (line endings, comments, keep-alives, multi-line data, events split across
 * chunks) is eventsource-parser's job; this file only interprets each event's data: `[DONE]`, an
 * `error` object, a choice's `finish_reason`, and whether a choice carried output (the first token).
 */
import { createParser } from 'eventsource-parser';

/** What one stream told the client. */
export interface StreamFacts {
  /** Events dispatched (not counting comments). */
  events: number;
  /** Events that carried output text, reasoning or a tool call. */
  tokenEvents: number;
  /** The `data: [DONE]` event arrived. */
  done: boolean;
  /** The last non-null finish_reason of any choice. */
  finishReason: string | null;
  /** The message of an error event or an `error` object in the data, else null. */
  error: string | null;
  /** Events whose data was neither `[DONE]` nor JSON. */
  malformed: number;
}

/** A stream reader: feed bytes, read facts. */
export interface StreamReader {
  feed(bytes: Uint8Array): void;
  /** The stream ended (cleanly or not): flush the decoder; an unterminated last event is dropped, as SSE says. */
  end(): StreamFacts;
  readonly facts: StreamFacts;
}

/** Longest event the reader buffers (1 MiB); a longer one is an error of the stream. */
const MAX_EVENT_BYTES = 1 << 20;

const MAX_ERROR_CHARS = 200;

function hasOutput(choice: Record<string, unknown>): boolean {
  if (typeof choice.text === 'string' && choice.text.length > 0) return true;
  const delta = choice.delta as Record<string, unknown> | undefined;
  if (!delta || typeof delta !== 'object') return false;
  for (const key of ['content', 'reasoning_content', 'reasoning']) {
    if (typeof delta[key] === 'string' && (delta[key] as string).length > 0) return true;
  }
  return Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0;
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  const text =
    typeof error === 'string' ? error : typeof message === 'string' ? message : JSON.stringify(error ?? null);
  return text.slice(0, MAX_ERROR_CHARS);
}

/** Create a reader; `onFirstToken` runs once, when the first event with output arrives. */
export function createStreamReader(onFirstToken: () => void = () => {}): StreamReader {
  const facts: StreamFacts = { events: 0, tokenEvents: 0, done: false, finishReason: null, error: null, malformed: 0 };
  const decoder = new TextDecoder('utf-8');
  // After an over-long event the parser refuses more input; the stream is then judged as it stands.
  let overflowed = false;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_BYTES,
    onError: (error) => {
      if (error.type !== 'max-buffer-size-exceeded') return;
      overflowed = true;
      if (facts.error === null) facts.error = 'an event longer than 1 MiB';
    },
    onEvent: (event) => {
      facts.events++;
      const data = event.data.trim();
      if (data === '[DONE]') {
        facts.done = true;
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        if (event.event === 'error' && facts.error === null)
          facts.error = data.slice(0, MAX_ERROR_CHARS) || 'error event';
        else facts.malformed++;
        return;
      }
      const object = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      if (event.event === 'error' || object.error !== undefined) {
        if (facts.error === null) facts.error = errorText(object.error ?? parsed);
        return;
      }
      if (!Array.isArray(object.choices)) return;
      let output = false;
      for (const choice of object.choices as Record<string, unknown>[]) {
        if (!choice || typeof choice !== 'object') continue;
        if (hasOutput(choice)) output = true;
        if (typeof choice.finish_reason === 'string') facts.finishReason = choice.finish_reason;
      }
      if (output && facts.tokenEvents++ === 0) onFirstToken();
    },
  });
  return {
    facts,
    feed(bytes) {
      const text = decoder.decode(bytes, { stream: true });
      if (!overflowed && text) parser.feed(text);
    },
    end() {
      const rest = decoder.decode();
      if (rest && !overflowed) parser.feed(rest);
      return facts;
    },
  };
}
