// The checker's shell parser (src/check/workload/shell/parse-script.ts). Expected calls are worked out by hand from
// bash's grammar (and, where noted, from running bash); statement boundaries are also held against sh-syntax, the
// maintained WebAssembly build of mvdan/sh, on every script of the fixtures and on the cases below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as shSyntax } from 'sh-syntax';
import { parseScript, parseStatements } from '../../src/check/workload/shell/parse-script.ts';
import { shellScripts } from '../support/shell-scripts.ts';

/** The words of each listed call, as literals (`?` for a word that expands) and with their flags. */
function calls(script: string): string[] {
  const parsed = parseScript(script);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.calls.map((c) => {
    const flags = [
      c.exec && 'exec',
      c.subshell && 'sub',
      c.background && 'bg',
      c.piped && 'piped',
      c.lastAlone && 'last',
      c.nested && 'nested',
      c.redirectedOrNegated && 'redir',
    ].filter(Boolean);
    return `${c.words.map((w) => w.literal ?? '?').join(' ')}${flags.length ? ` [${flags.join(',')}]` : ''}`;
  });
}

function message(script: string): string {
  const parsed = parseScript(script);
  assert.ok(!parsed.ok, `expected a syntax error in ${JSON.stringify(script)}`);
  return parsed.message;
}

test('a server started by exec, with assignments before it and redirections after: assignments are not words', () => {
  assert.deepEqual(calls('set -e\nFOO=1 BAR=$(id -u) exec vllm serve "$MODEL" --port 8000 > /tmp/log 2>&1'), [
    'set -e',
    'exec vllm serve ? --port 8000 [exec,last,redir]',
  ]);
  assert.deepEqual(calls('python3 -m sglang.launch_server --port 30000 &\nwait $!'), [
    'python3 -m sglang.launch_server --port 30000 [bg]',
    'wait ? [last]',
  ]);
  // An assignment alone is a statement with no words; a redirection alone is none.
  assert.deepEqual(
    calls('X=1\n> /tmp/ready\ntrue'),
    [' ', 'true [last]'].map((s) => s.trim()),
  );
});

test('every body of if, while, until, for, select, case and groups is listed as nested; && and | mark their sides', () => {
  const script = [
    'if [ -n "$A" ]; then exec a; elif test -f x; then b; else c; fi',
    'while read -r l; do d "$l"; done < /tmp/in',
    'until e; do f; done',
    'for i in 1 2; do g; done; for ((i = 0; i < 2; i++)); do h; done',
    'for i\ndo k\ndone',
    'select x in p q; do m; done',
    'case "$1" in\n  start|run) n ;;\n  (stop) o ;&\n  *) p ;;&\nesac',
    '{ q; r; } > /tmp/log',
    '( cd /srv && exec s )',
    'u | v |& w',
    '! x',
  ].join('\n');
  assert.deepEqual(calls(script), [
    '[ -n ? ] [nested]',
    'exec a [exec,nested]',
    'test -f x [nested]',
    'b [nested]',
    'c [nested]',
    'read -r l [nested]',
    'd ? [nested]',
    'e [nested]',
    'f [nested]',
    'g [nested]',
    'h [nested]',
    'k [nested]',
    'm [nested]',
    'n [nested]',
    'o [nested]',
    'p [nested]',
    // The group's redirection belongs to the group, not to the commands in it.
    'q [nested]',
    'r [nested]',
    // exec in a subshell replaces the subshell only.
    'cd /srv [sub,nested]',
    'exec s [exec,sub,nested]',
    'u [piped,nested]',
    'v [piped,nested]',
    'w [piped,nested]',
    'x [last,redir]',
  ]);
});

test('what the checker never edits is not listed: substitutions, functions, time, coproc, declarations, tests', () => {
  const script = [
    'echo "$(vllm serve a)" `vllm serve b` <(vllm serve c)',
    'start() { vllm serve d; }',
    'function stop { vllm serve e; }',
    'time vllm serve f',
    'coproc vllm serve g',
    'export X=$(vllm serve h) Y',
    'local z=1; declare -a arr=(1 2); readonly r; let "n = 1"',
    '[[ -n $X && $Y =~ ^(a|b)$ ]] && (( n > 0 ))',
    'cat <<EOF\nvllm serve i\nEOF',
    'cat <<-"EOF" > /tmp/f\n\tvllm serve j\n\tEOF',
    'python3 - <<< "print(1)"',
  ].join('\n');
  assert.deepEqual(calls(script), ['echo ? ? ?', 'cat [redir]', 'cat [redir]', 'python3 - [last,redir]']);
});

test('words: quotes removed, escapes read, expansions and ANSI-C escapes left unread, offsets as written', () => {
  const parsed = parseScript(`vllm serve 'my model' "a\\"b" \\$HOME $'ab' $'a\\tb' $"loc" "$X" \${Y:-z} a*b ~/x`);
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.calls[0].words.map((w) => [w.source, w.literal]),
    [
      ['vllm', 'vllm'],
      ['serve', 'serve'],
      ["'my model'", 'my model'],
      ['"a\\"b"', 'a"b'],
      ['\\$HOME', '$HOME'],
      ["$'ab'", 'ab'],
      ["$'a\\tb'", undefined],
      ['$"loc"', 'loc'],
      ['"$X"', undefined],
      ['${Y:-z}', undefined],
      ['a*b', 'a*b'],
      ['~/x', '~/x'],
    ],
  );
  const third = parsed.calls[0].words[2];
  assert.deepEqual([third.start, third.end], [11, 21]);
});

test('# starts a comment only at the start of a word (bash prints a#b); a line continuation ends a word before it', () => {
  assert.deepEqual(calls('echo "a"#b #c\necho d # e'), ['echo a#b', 'echo d [last]']);
  const bash = spawnSync('bash', ['-c', 'echo "a"#b #c'], { encoding: 'utf8' });
  if (bash.status === 0) assert.equal(bash.stdout, 'a#b\n');
  const parsed = parseScript('exec vllm serve m \\\n  --port 8000');
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.calls[0].words.map((w) => [w.source, w.start, w.end]),
    [
      ['exec', 0, 4],
      ['vllm', 5, 9],
      ['serve', 10, 15],
      ['m', 16, 17],
      ['--port', 22, 28],
      ['8000', 29, 33],
    ],
  );
});

test('bash reads a reserved word right after a compound command: { [[ … ]] } and { ( … ) } parse', () => {
  assert.deepEqual(calls('{ [[ -v X ]] && [[ y ]] }; echo ok'), ['echo ok [last]']);
  assert.deepEqual(calls('{ (a) }'), ['a [sub,nested]']);
  // After a simple command, `}` is an argument, and the group is left open.
  assert.match(message('{ echo a }'), /^1:11: expected `}`$/);
});

test('traps are seen at top level and in clauses', () => {
  assert.equal((parseScript('trap "kill 0" TERM; vllm serve a & wait') as { traps: boolean }).traps, true);
  assert.equal((parseScript('if true; then trap cleanup TERM; fi') as { traps: boolean }).traps, true);
  assert.equal((parseScript('echo trap') as { traps: boolean }).traps, false);
});

test('syntax errors name the line and column and what is wrong, so the checker abstains', () => {
  assert.equal(message("echo 'x"), "1:6: reached EOF without closing quote `'`");
  assert.equal(message('echo "x\ny'), '1:6: reached EOF without closing quote `"`');
  assert.equal(message('cat <<EOF\nbody\n'), '3:1: unclosed here-document `EOF`');
  assert.equal(message('cat <<EOF'), '1:10: unclosed here-document `EOF`');
  assert.equal(message('echo ${X)'), '1:6: not a valid parameter expansion');
  assert.equal(message('echo $(a'), '1:9: reached EOF without matching `(` with `)`');
  assert.equal(message('fi'), '1:1: `fi` can only be used in its own clause');
  assert.equal(message(') a'), '1:1: `)` can only be used to close a subshell');
  assert.equal(message('a &&'), '1:5: reached EOF where a command was expected');
  assert.equal(message('if a; then b'), '1:13: expected `fi`');
  assert.equal(message('; a'), '1:1: `;` can only immediately follow a statement');
});

// ── Against sh-syntax (mvdan/sh) ───────────────────────────────────────────────────────────────────────────────────

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The shell scripts of the repository's YAML fixtures, each once. */
function fixtureScripts(): string[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(entry)) {
        const { containers, configMaps } = shellScripts(readFileSync(path, 'utf8'), { hooks: true });
        for (const script of [...containers.map((c) => c.script), ...configMaps]) found.add(script);
      }
    }
  };
  for (const dir of ['tests/fixtures', 'src/check/rules']) walk(join(ROOT, dir));
  return [...found];
}

const CASES = [
  'set -e\nFOO=1 exec vllm serve "$M" > log 2>&1 &\nwait',
  'a; b;c & d&&e || f | g',
  '! a | b > x; c',
  '{ a; } > f 2>&1; ( b ) < in',
  'if a; then b; elif c; then d; else e; fi > log',
  'while a; do b; done | tee x &',
  'for i in 1 2; do :; done; for ((i = 0; i < 3; i++)); do :; done',
  'case x in a|b) c ;; (d) e ;& *) f ;;& esac',
  'f() { a; }; function g { b; }',
  'cat <<EOF > out\nbody $X\nEOF\necho after',
  'cat <<-"EOF"\n\tbody\n\tEOF\n',
  'exec 3<>file; cmd &>log; cmd2 >>log 2>&1; cmd3 <<< "s"',
  'echo "$(echo "$(date)")" `id` ${x:-y} $((1 + (2 * 3))) $\'a\\tb\'',
  'arr=(a "b c"); declare -a x=(1 2); export Y=$(z)',
  '[[ -n "$X" && $Y =~ ^(a|b)$ ]] && (( n > 0 ))',
  'a \\\n  b\n# comment\n  c # trailing',
  'time a | b; coproc c',
  '{ [[ -v X ]] && [[ y ]] }; echo ok',
  'echo @(a|b) !(c) x*(y)',
  'echo ok; exit 0;',
];

const INVALID = [
  "echo 'x",
  'echo "x',
  'cat <<EOF\nbody\n',
  'echo ${X)',
  'echo $(a',
  'fi',
  ') a',
  'a &&',
  'if a; then b',
];

interface ShStmt {
  Pos: { Offset: number };
  End: { Offset: number };
  Background: boolean;
  Negated: boolean;
  Redirs: { Op: string }[];
}

/**
 * Top-level statements as sh-syntax reports them, or undefined when it rejects the script. A statement with a
 * here-document is compared without its end: mvdan/sh ends it after the body, this parser at the delimiter word.
 */
async function reference(script: string): Promise<string[] | undefined> {
  try {
    const file = (await shSyntax(script)) as unknown as { Stmts: ShStmt[] };
    return file.Stmts.map(
      (s) =>
        `${s.Pos.Offset}-${s.Redirs.some((r) => r.Op.startsWith('<<') && r.Op !== '<<<') ? '' : s.End.Offset}${s.Background ? ' &' : ''}${s.Negated ? ' !' : ''} ${s.Redirs.map((r) => r.Op).join(' ')}`,
    );
  } catch {
    return undefined;
  }
}

function ours(script: string): string[] | undefined {
  const parsed = parseStatements(script);
  if (!parsed.ok) return undefined;
  return parsed.statements.map(
    (s) =>
      `${s.start}-${s.redirects.some((op) => /^[0-9]*<<-?$/.test(op)) ? '' : s.end}${s.background ? ' &' : ''}${s.negated ? ' !' : ''} ${s.redirects.map((op) => op.replace(/^[0-9]+/, '')).join(' ')}`,
  );
}

test('statements match sh-syntax (mvdan/sh) on every fixture script and every case above; both reject the invalid', async () => {
  const scripts = fixtureScripts();
  assert.ok(scripts.length >= 40, `only ${scripts.length} scripts found in the fixtures`);
  // ASCII only: sh-syntax reports byte offsets, this parser string indexes.
  for (const script of [...scripts, ...CASES].filter((s) => /^[\x00-\x7f]*$/.test(s))) {
    const expected = await reference(script);
    assert.ok(expected, `sh-syntax rejects ${JSON.stringify(script.slice(0, 200))}`);
    assert.deepEqual(ours(script), expected, JSON.stringify(script.slice(0, 300)));
  }
  for (const script of INVALID) {
    assert.equal(await reference(script), undefined, script);
    assert.equal(ours(script), undefined, script);
  }
});

test('found by review: fd-less &>, background and subshells around lists, here-document continuations, a last backslash', () => {
  // bash -c 'vllm serve m --tp 2&>/tmp/log' passes [serve] [m] [--tp] [2] to vllm: `&>` takes no descriptor.
  assert.deepEqual(calls('vllm serve m --tp 2&>/tmp/log'), ['vllm serve m --tp 2 [last,redir]']);
  // `&` after a list or group runs all of it in the background.
  assert.deepEqual(calls('true && vllm serve m &\nwait'), [
    'true [bg,nested]',
    'vllm serve m [bg,nested]',
    'wait [last]',
  ]);
  assert.deepEqual(calls('{ a; b; } &'), ['a [bg,nested]', 'b [bg,nested]']);
  // `!(…)` at the start of a command is a negated subshell (extglob is off in scripts).
  assert.deepEqual(calls('!(vllm serve m)'), ['vllm serve m [sub,nested]']);
  // In an unquoted body, a backslash at the end of a line joins the next: this EOF is not the delimiter.
  assert.deepEqual(calls('cat <<EOF\nx \\\nEOF\nvllm serve m\nEOF\n'), ['cat [last,redir]']);
  // A quoted delimiter is the word after quote removal, backslash and all: a\b, not ab.
  assert.deepEqual(calls("cat <<'a\\b'\nab\nvllm serve m\na\\b\n"), ['cat [last,redir]']);
  // A backslash that ends the script is a word of its own (bash passes `\`), inside the text.
  const parsed = parseScript('vllm serve m \\');
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.calls[0].words.map((w) => [w.source, w.literal, w.end]),
    [
      ['vllm', 'vllm', 4],
      ['serve', 'serve', 10],
      ['m', 'm', 12],
      ['\\', '\\', 14],
    ],
  );
});

test('a hostile depth is refused, not a crash; a long && chain is read', () => {
  const deep = parseScript(`echo ${'$('.repeat(940)}x${')'.repeat(940)}`);
  assert.ok(!deep.ok);
  assert.match(deep.message, /nests lists more than 200 deep/);
  assert.ok(!parseScript(`${'{ '.repeat(2500)}x`).ok);
  const chain = parseScript(Array.from({ length: 6000 }, () => 'x').join(' && '));
  assert.ok(chain.ok);
  assert.equal(chain.calls.length, 6000);
});
