/**
 * A copy of the project in a temporary folder, for the tests that follow a CONTRIBUTING.md recipe: they change the
 * copy the way the recipe says (a new file, a line in a table) and run the CLI there, never touching the checkout.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a CLI run in the copy printed, and how it ended. */
export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A project copy: write, edit and run there; `remove` when done. */
export interface ProjectCopy {
  dir: string;
  /** Write a file (path relative to the copy). */
  write(path: string, text: string): void;
  /** Replace `find` (which must occur exactly once) by `replace` in a file of the copy. */
  edit(path: string, find: string, replace: string): void;
  /** Run `node <args>` in the copy (e.g. 'src/cli/main.ts', 'generate', …). */
  node(...args: string[]): Run;
  remove(): void;
}

/** Copy what the CLI and the rule generator need (src, content, scripts, package.json) and link node_modules. */
export function copyProject(): ProjectCopy {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-recipe-'));
  for (const path of ['src', 'content', 'scripts', 'package.json'])
    cpSync(join(ROOT, path), join(dir, path), {
      recursive: true,
      filter: (source) => !source.startsWith(join(ROOT, 'content', 'docs')),
    });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return {
    dir,
    write: (path, text) => writeFileSync(join(dir, path), text),
    edit: (path, find, replace) => {
      const text = readFileSync(join(dir, path), 'utf8');
      const at = text.indexOf(find);
      if (at < 0 || text.indexOf(find, at + 1) >= 0) throw new Error(`${path}: expected ${JSON.stringify(find)} once`);
      writeFileSync(join(dir, path), text.slice(0, at) + replace + text.slice(at + find.length));
    },
    node: (...args) => {
      const r = spawnSync(process.execPath, args, {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
