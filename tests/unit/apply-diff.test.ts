// The golden-diff applier of the rule fixtures (tests/support/apply-diff.ts): unified diffs worked by hand, and the
// diffs it refuses because they do not fit the text exactly (where `patch` would shift or fuzz them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUnifiedDiff } from '../support/apply-diff.ts';

const TEXT = 'a\nb\nc\nd\ne\nf\ng\nh\n';

test('hunks that change, remove and add lines give the new text', () => {
  const diff = `--- a/x.yaml
+++ b/x.yaml
@@ -1,3 +1,3 @@
 a
-b
+B
 c
@@ -5,4 +5,6 @@
 e
-f
+F1
+F2
 g
+g2
 h
`;
  assert.equal(applyUnifiedDiff(TEXT, diff), 'a\nB\nc\nd\ne\nF1\nF2\ng\ng2\nh\n');
});

test('a hunk of only added or only removed lines (count 0), and a last line without a line break', () => {
  assert.equal(applyUnifiedDiff(TEXT, '--- a\n+++ b\n@@ -2,0 +3 @@\n+b2\n'), 'a\nb\nb2\nc\nd\ne\nf\ng\nh\n');
  assert.equal(applyUnifiedDiff(TEXT, '--- a\n+++ b\n@@ -2,2 +1,0 @@\n-b\n-c\n'), 'a\nd\ne\nf\ng\nh\n');
  assert.equal(applyUnifiedDiff('a\nb', '--- a\n+++ b\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+b\n'), 'a\nb\n');
});

test('a diff that does not fit exactly is refused, naming the hunk and the line', () => {
  const refuses = (diff: string, message: RegExp) => assert.throws(() => applyUnifiedDiff(TEXT, diff), message);
  // The right change, one line off: patch would apply it with an offset.
  refuses(
    '--- a\n+++ b\n@@ -2,3 +2,3 @@\n a\n-b\n+B\n c\n',
    /hunk 1, line 2: the diff has "a\\n", the text has "b\\n"/,
  );
  refuses('--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-x\n+B\n c\n', /hunk 1, line 2: the diff has "x\\n"/);
  refuses('--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n', /hunk 1 says -3 \+3 lines but has -2 \+2/);
  refuses('--- a\n+++ b\n@@ -1,2 +2,2 @@\n a\n-b\n+B\n', /new text starts at line 2, but that is line 1/);
  refuses('--- a\n+++ b\n@@ -7,2 +7,2 @@\n g\n h\n@@ -1,1 +1,1 @@\n-a\n+A\n', /hunk 2 starts at line 1, inside/);
  refuses('--- a\n+++ b\n@@ -20,1 +20,1 @@\n-a\n+A\n', /past the text's end/);
  refuses('@@ -1 +1 @@\n-a\n+A\n', /does not start with --- and \+\+\+/);
  refuses('--- a\n+++ b\nnot a hunk\n', /line 3 of the diff is not a hunk header/);
  refuses('--- a\n+++ b\n@@ -1 +1 @@\n*a\n', /neither space, - nor \+/);
});
