#!/usr/bin/env node
// Entry for `npx hitless` in a checkout: runs src/cli/main.ts on a Node that strips TypeScript types (>= 22.18; the
// installable package, scripts/build-cli.ts, needs only 22.12, as its code is built to JavaScript).
// On an older system Node it re-runs itself with the project's own Node 24 (node_modules/.bin/node), forwards
// SIGINT, SIGTERM and SIGHUP to it, ends it when this wrapper loses its own parent, and exits as it exits.
import { spawn } from 'node:child_process';
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
    process.stderr.write(
      `hitless needs Node >= 22.18 to run from a checkout, which strips TypeScript types (this is ${process.version}); run npm ci to install the project's Node 24.\n`,
    );
    process.exit(2);
  }
  const child = spawn(local, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  // A parent that dies without forwarding a signal (npm's shell killed, SIGKILL) re-parents this wrapper: stop the CLI.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) forward('SIGTERM');
  }, 200);
  child.once('error', (error) => {
    process.stderr.write(`hitless: could not start ${local}: ${error.message}\n`);
    process.exit(2);
  });
  child.once('exit', (code, signal) => {
    clearInterval(watch);
    if (signal) {
      // End the way the child ended, so a caller sees the same signal.
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(s, forward);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}
