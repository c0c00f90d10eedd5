#!/usr/bin/env node
// Entry for `npx hitless`: runs src/cli/main.ts on a Node that strips TypeScript types (>= 22.18).
// On an older system Node it re-runs itself with the project's own Node 24 (node_modules/.bin/node).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const [major, minor] = process.versions.node.split('.').map(Number);
if (major > 22 || (major === 22 && minor >= 18)) {
  const { main: run } = await import(main);
  process.exitCode = await run(process.argv.slice(2));
} else {
  const local = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  if (!existsSync(local)) {
    process.stderr.write(`hitless needs Node >= 22.18 (this is ${process.version}); run npm ci to install the project's Node 24.\n`);
    process.exit(2);
  }
  const result = spawnSync(local, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
