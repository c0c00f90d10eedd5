/**
 * The generator's manifest as lines (manifest-lines.ts): after a change each line shows the worker's colours when
 * the answer is for exactly this text, else the colours its text had in the last answer, else plain text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownLinesOf, linesToRender, splitLines } from '../../src/components/generator/manifest-lines.ts';

test('a manifest splits into its lines without the final newline, blank lines kept', () => {
  assert.deepEqual(splitLines('a: 1\n\nb: 2\n'), ['a: 1', '', 'b: 2']);
  assert.deepEqual(splitLines('a: 1'), ['a: 1']);
});

test('an answer for exactly this text colours every line from it, by position', () => {
  const code = 'x: 1\nx: 1\n';
  const lines = linesToRender(code, { code, lines: ['<i>first</i>\n', '<i>second</i>\n'] }, new Map());
  assert.deepEqual(lines, [
    { text: 'x: 1', html: '<i>first</i>\n' },
    { text: 'x: 1', html: '<i>second</i>\n' },
  ]);
});

test('before the answer for a new text, unchanged lines keep their colours and a changed line is plain', () => {
  const before = { code: 'a: 1\nb: 2\nc: 3\n', lines: ['A\n', 'B\n', 'C\n'] };
  const known = knownLinesOf(before);
  // b changed from 2 to 20; the stale answer is for the old text, so it is read only through `known`.
  assert.deepEqual(linesToRender('a: 1\nb: 20\nc: 3\n', before, known), [
    { text: 'a: 1', html: 'A\n' },
    { text: 'b: 20', html: null },
    { text: 'c: 3', html: 'C\n' },
  ]);
  // A line moved down by an inserted one keeps its colours too (they are known by text, not by position).
  assert.deepEqual(
    linesToRender('new: 0\na: 1\n', before, known).map((l) => l.html),
    [null, 'A\n'],
  );
});

test('a text seen twice in an answer is known by its first occurrence', () => {
  const known = knownLinesOf({ code: '- x\n- x\n', lines: ['one\n', 'two\n'] });
  assert.deepEqual([...known], [['- x', 'one\n']]);
});

test('an answer shorter than its text (never sent, but read defensively) leaves the rest plain', () => {
  const code = 'a\nb\n';
  assert.deepEqual(linesToRender(code, { code, lines: ['A\n'] }, new Map()), [
    { text: 'a', html: 'A\n' },
    { text: 'b', html: null },
  ]);
});
