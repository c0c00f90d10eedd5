// GitHub workflow annotations, checked against the format GitHub documents ("Setting an error message"):
// ::error file={name},line={line},title={title}::{message}, with %, CR, LF escaped everywhere and : , in properties.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { annotationLevel, formatAnnotation } from '../../src/cli/github-annotations.ts';

test('an error with file, line and title', () => {
  assert.equal(
    formatAnnotation({ level: 'error', file: 'deploy/vllm.yaml', line: 42, title: 'hitless prestop-missing', message: 'No preStop hook.' }),
    '::error file=deploy/vllm.yaml,line=42,title=hitless prestop-missing::No preStop hook.',
  );
});

test('newlines and percent signs are escaped; colons and commas only in properties', () => {
  assert.equal(
    formatAnnotation({ level: 'warning', file: 'a,b:c.yaml', line: 1, title: 'x: y, z', message: '50% done\nnext: line, two\r' }),
    '::warning file=a%2Cb%3Ac.yaml,line=1,title=x%3A y%2C z::50%25 done%0Anext: line, two%0D',
  );
});

test('a note about the whole run has no file or line', () => {
  assert.equal(formatAnnotation({ level: 'notice', title: 'hitless', message: 'Checked 3 workloads.' }), '::notice title=hitless::Checked 3 workloads.');
});

test('severities map to levels', () => {
  assert.equal(annotationLevel('error'), 'error');
  assert.equal(annotationLevel('warning'), 'warning');
  assert.equal(annotationLevel('info'), 'notice');
});
