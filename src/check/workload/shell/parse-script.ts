/**
 * Parse a container's shell script with mvdan/sh (the parser behind shfmt) and list the commands it runs as
 * statements: the simple commands of its top-level lists, `if`/`while`/`for`/`case` bodies, `{ }` and `( )`
 * groups. Commands inside `$(…)`, `$((…))`, `<(…)`, functions or another program's quoted argument are not
 * listed: the checker never edits them.
 *
 * mvdan-sh (GopherJS) rather than sh-syntax (WebAssembly): sh-syntax 0.7.0 returns each statement's command as its
 * two positions only, with no words or bodies, and weighs the same gzipped (../shared/research/shell-parser.md).
 */
import sh from 'mvdan-sh';
import type { ShNode } from 'mvdan-sh';

/** One word of a command: its source text, offsets in the script, and its value when it is literal. */
export interface ScriptWord {
  /** The word as written (quotes included). */
  source: string;
  start: number;
  end: number;
  /** The word after quote removal, or undefined when it expands something (`$X`, `$(…)`, globs are kept). */
  literal?: string;
}

/** A simple command of the script, run as a statement. */
export interface ScriptCall {
  words: ScriptWord[];
  /** `exec` is its first word. */
  exec: boolean;
  /** Run with `&`. */
  background: boolean;
  /** A stage of a pipeline (`a | b`). */
  piped: boolean;
  /** The last statement of the script, at top level and on its own (not in `&&`, `||`, a group or a clause). */
  lastAlone: boolean;
  /** Inside `if`/`while`/`for`/`case`, a group, or a `&&`/`||` list. */
  nested: boolean;
  /** Has redirections (`> log 2>&1`) or is negated (`! cmd`): bash then forks for it even as the last command. */
  redirectedOrNegated: boolean;
}

/** A parsed script, or the parser's message. */
export type ParsedScript = { ok: true; calls: ScriptCall[]; traps: boolean } | { ok: false; message: string };

const syntax = sh.syntax;

/** Map UTF-8 byte offsets (what the parser reports) to string indexes. */
function offsetMapper(text: string): (byte: number) => number {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return (byte) => byte;
  const encoder = new TextEncoder();
  const starts: number[] = [];
  let byte = 0;
  for (let i = 0; i < text.length; i++) {
    starts[byte] = i;
    const code = text.codePointAt(i)!;
    const size = encoder.encode(String.fromCodePoint(code)).length;
    if (code > 0xffff) i++;
    byte += size;
  }
  starts[byte] = text.length;
  return (b) => starts[b] ?? text.length;
}

function list(node: ShNode | null | undefined, field: string): ShNode[] {
  const value = node ? node[field] : undefined;
  return Array.isArray(value) ? (value as ShNode[]) : [];
}

/** The value of a word made only of plain text and quotes; undefined when it expands anything. */
function literalOf(word: ShNode): string | undefined {
  let out = '';
  for (const part of list(word, 'Parts')) {
    const type = syntax.NodeType(part);
    if (type === 'Lit') out += String(part.Value).replace(/\\(.)/gs, '$1');
    else if (type === 'SglQuoted') out += String(part.Value);
    else if (type === 'DblQuoted') {
      for (const inner of list(part, 'Parts')) {
        if (syntax.NodeType(inner) !== 'Lit') return undefined;
        out += String(inner.Value).replace(/\\([$`"\\])/g, '$1');
      }
    } else return undefined;
  }
  return out;
}

/** BinaryCmd operators as mvdan/sh numbers them. */
const AND = 10;
const OR = 11;

/** Parsed scripts by text: manifests repeat the same script across workloads, and parsing costs milliseconds. */
const parsedScripts = new Map<string, ParsedScript>();
const MAX_CACHED_SCRIPTS = 200;

/** Parse a script; list the simple commands it runs as statements. Results are shared: do not change them. */
export function parseScript(text: string): ParsedScript {
  const cached = parsedScripts.get(text);
  if (cached) return cached;
  const parsed = parseUncached(text);
  if (parsedScripts.size >= MAX_CACHED_SCRIPTS) parsedScripts.delete(parsedScripts.keys().next().value!);
  parsedScripts.set(text, parsed);
  return parsed;
}

function parseUncached(text: string): ParsedScript {
  let file: ShNode;
  try {
    file = syntax.NewParser().Parse(text, '');
  } catch (caught) {
    const error = caught as { Error?: () => string; message?: string };
    return { ok: false, message: typeof error.Error === 'function' ? error.Error() : String(error.message ?? caught) };
  }
  const at = offsetMapper(text);
  const calls: ScriptCall[] = [];
  let traps = false;
  const statements = list(file, 'Stmts');

  const visit = (stmt: ShNode, ctx: { piped: boolean; nested: boolean; lastAlone: boolean }): void => {
    const cmd = stmt.Cmd as ShNode | null;
    if (!cmd) return;
    const type = syntax.NodeType(cmd);
    const nested = { piped: ctx.piped, nested: true, lastAlone: false };
    switch (type) {
      case 'CallExpr': {
        const words = list(cmd, 'Args').map((w) => {
          const start = at(w.Pos().Offset());
          const end = at(w.End().Offset());
          return { source: text.slice(start, end), start, end, literal: literalOf(w) };
        });
        if (words[0]?.literal === 'trap') traps = true;
        calls.push({
          words,
          exec: words[0]?.literal === 'exec',
          background: Boolean(stmt.Background),
          piped: ctx.piped,
          lastAlone: ctx.lastAlone && !stmt.Background,
          nested: ctx.nested,
          redirectedOrNegated: list(stmt, 'Redirs').length > 0 || Boolean(stmt.Negated),
        });
        return;
      }
      case 'BinaryCmd': {
        const piped = cmd.Op !== AND && cmd.Op !== OR;
        visit(cmd.X as ShNode, { ...nested, piped: ctx.piped || piped });
        visit(cmd.Y as ShNode, { ...nested, piped: ctx.piped || piped });
        return;
      }
      case 'Block':
      case 'Subshell':
        for (const s of list(cmd, 'Stmts')) visit(s, nested);
        return;
      case 'IfClause':
        for (let clause: ShNode | null = cmd; clause; clause = clause.Else as ShNode | null) {
          for (const s of [...list(clause, 'Cond'), ...list(clause, 'Then')]) visit(s, nested);
        }
        return;
      case 'WhileClause':
        for (const s of [...list(cmd, 'Cond'), ...list(cmd, 'Do')]) visit(s, nested);
        return;
      case 'ForClause':
        for (const s of list(cmd, 'Do')) visit(s, nested);
        return;
      case 'CaseClause':
        for (const item of list(cmd, 'Items')) for (const s of list(item, 'Stmts')) visit(s, nested);
        return;
      default:
      // Functions, arithmetic and test commands, declarations: nothing the checker edits.
    }
  };
  statements.forEach((stmt, i) => visit(stmt, { piped: false, nested: false, lastAlone: i === statements.length - 1 }));
  return { ok: true, calls, traps };
}
