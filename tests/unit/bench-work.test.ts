/**
 * The bench's main-thread work figure (scripts/bench-work.ts) on hand-built traces: which tasks count, how each is
 * weighed, and which time is used.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockingWork, type TraceEvent } from '../../scripts/bench-work.ts';

const PID = 7;
const MAIN = 1;
const OTHER = 2;
const ms = (x: number) => x * 1000;

/** A top-level task on a thread: start and wall duration in ms, CPU time in ms (tdur). */
function task(tid: number, start: number, wall: number, cpu: number): TraceEvent {
  return { name: 'RunTask', ph: 'X', pid: PID, tid, ts: ms(start), dur: ms(wall), tdur: ms(cpu) };
}

function child(name: string, start: number, wall: number, url?: string): TraceEvent {
  return { name, ph: 'X', pid: PID, tid: MAIN, ts: ms(start), dur: ms(wall), args: url ? { beginData: { url } } : {} };
}

function trace(...events: TraceEvent[]): TraceEvent[] {
  return [
    { name: 'thread_name', ph: 'M', pid: PID, tid: MAIN, ts: 0, args: { name: 'CrRendererMain' } },
    { name: 'thread_name', ph: 'M', pid: PID, tid: OTHER, ts: 0, args: { name: 'Compositor' } },
    { name: 'firstContentfulPaint', ph: 'I', pid: PID, tid: MAIN, ts: ms(400) },
    ...events,
  ];
}

test('tasks after the first parse of the page count: 4 × CPU time, 2 × with a layout, less 50 ms each', () => {
  const r = blockingWork(
    trace(
      // Before the page: about:blank's parse does not mark the start.
      task(MAIN, 0, 30, 30),
      child('ParseHTML', 1, 5, 'about:blank'),
      // The first parse of the page: not counted (Lighthouse puts it before its first paint).
      task(MAIN, 100, 40, 40),
      child('ParseHTML', 101, 38, 'http://127.0.0.1:4321/generator/'),
      // 20 ms of CPU: 4 × 20 − 50 = 30.
      task(MAIN, 200, 20, 20),
      // 40 ms with a layout: 2 × 40 − 50 = 30.
      task(MAIN, 300, 40, 40),
      child('Layout', 305, 30),
      // 12 ms: 48, under 50, counts 0.
      task(MAIN, 400, 12, 12),
    ),
  );
  assert.deepEqual(r, { weighed: 60, longest: 40 });
});

test('CPU time, not wall time: a task that waited for the CPU weighs what it ran', () => {
  // 90 ms on the clock, 15 ms of CPU: 4 × 15 − 50 = 10.
  const r = blockingWork(
    trace(task(MAIN, 100, 5, 5), child('ParseHTML', 100, 4, 'https://example.test/'), task(MAIN, 200, 90, 15)),
  );
  assert.deepEqual(r, { weighed: 10, longest: 15 });
});

test("another thread's tasks and tasks nested in a task are not counted again", () => {
  const r = blockingWork(
    trace(
      task(MAIN, 100, 5, 5),
      child('ParseHTML', 100, 4, 'http://127.0.0.1/'),
      task(OTHER, 150, 100, 100),
      task(MAIN, 200, 30, 30),
      // A RunTask inside the one above (a nested run loop): part of it already.
      task(MAIN, 210, 10, 10),
    ),
  );
  // Only the 30 ms task: 4 × 30 − 50 = 70.
  assert.deepEqual(r, { weighed: 70, longest: 30 });
});

test('a trace without a first paint gives nothing', () => {
  assert.equal(
    blockingWork([{ name: 'thread_name', ph: 'M', pid: PID, tid: MAIN, ts: 0, args: { name: 'CrRendererMain' } }]),
    undefined,
  );
});
