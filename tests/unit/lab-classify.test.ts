import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify } from '../../src/lab/classify.ts';

const chunk = 'data: {"id":"cmpl-1","choices":[{"index":0,"text":" tok tok"}]}\n\n';

test('a complete stream that ends with [DONE] is ok', () => {
  assert.equal(classify({ status: 200, complete: true, body: `${chunk}${chunk}data: [DONE]\n\n` }), 'ok');
});

test('503 and 502 from the gateway are refused requests', () => {
  assert.equal(
    classify({ status: 503, complete: true, body: '<html><body><h1>503 Service Unavailable</h1>' }),
    'refused',
  );
  assert.equal(classify({ status: 502, complete: true, body: '<html><body><h1>502 Bad Gateway</h1>' }), 'refused');
});

test('a stream that breaks off before its end is cut', () => {
  assert.equal(classify({ status: 200, complete: false, body: chunk }), 'cut');
  // a body that ended cleanly but without [DONE] is also incomplete
  assert.equal(classify({ status: 200, complete: true, body: chunk }), 'cut');
});

test('a stream the server ends with its shutdown error event is aborted', () => {
  const abort = 'data: {"error":{"message":"Request aborted: server shutting down","type":"server_shutdown"}}\n\n';
  assert.equal(classify({ status: 200, complete: true, body: `${chunk}${abort}` }), 'aborted');
  assert.equal(classify({ status: 200, complete: false, body: `${chunk}${abort}` }), 'aborted');
});

test('no response, a timeout or another status is a lab error', () => {
  assert.equal(classify({ complete: false, body: '' }), 'error');
  assert.equal(classify({ status: 200, complete: false, body: chunk, timedOut: true }), 'error');
  assert.equal(classify({ status: 504, complete: true, body: '' }), 'error');
  assert.equal(classify({ status: 404, complete: true, body: '' }), 'error');
});
