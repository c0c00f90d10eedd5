/**
 * Print a rule fixture as the tests read it: an overlay composed on its base manifest (a whole manifest as it is),
 * to write a golden fixed.diff against (see CONTRIBUTING.md, "A rule's fixtures"):
 *
 *   node scripts/compose-fixture.ts src/check/rules/<code>/fires.yaml > fires.yaml
 */
import { readFileSync } from 'node:fs';
import { composeFixture } from '../tests/support/rule-fixtures.ts';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/compose-fixture.ts FIXTURE.yaml\n');
  process.exit(2);
}
process.stdout.write(composeFixture(readFileSync(file, 'utf8')));
