/**
 * Parse a container's shell script (bash's grammar, which dash's is a subset of) and list the commands it runs as
 * statements: the simple commands of its top-level lists, `if`/`while`/`until`/`for`/`select`/`case` bodies,
 * `{ }` and `( )` groups. Commands inside `$(…)`, `` `…` ``, `<(…)`, functions, `time`/`coproc`, or another program's
 * quoted argument are not listed, nor are declarations (`export`, `local`, …): the checker never edits them.
 *
 * A recursive-descent parser of its own: mvdan-sh, the JavaScript build of mvdan/sh, is deprecated by its author, and
 * sh-syntax (the maintained build) returns each statement's command as two positions, with no words or bodies
 * (its processor/structs.go maps every command to a bare position node). Whatever this parser does not understand is
 * a syntax error, so the checker abstains rather than guesses; tests/unit/shell-parse.test.ts holds its statements
 * against sh-syntax's on every script of the fixtures.
 */

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
  /** Inside a `( )` subshell: an `exec` there replaces the subshell, not the shell that runs the script. */
  subshell: boolean;
  /** Run with `&`, or inside a list or group that is (`a && b &`, `{ …; } &`). */
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

/** A statement: its command, with what bash applies around it. Offsets span the statement and its `;` or `&`. */
export interface Statement {
  start: number;
  end: number;
  negated: boolean;
  background: boolean;
  /** Redirection operators, in order (`>`, `2>&`, `<<`). */
  redirects: string[];
  command: Command;
}

/** A command of a statement. `hidden` commands run, but nothing the checker reads or edits is in them. */
export type Command =
  | { kind: 'call'; words: ScriptWord[] }
  | { kind: 'binary'; op: '&&' | '||' | '|' | '|&'; left: Statement; right: Statement }
  | { kind: 'group'; bodies: Statement[][]; subshell?: boolean }
  | { kind: 'hidden' }
  | { kind: 'none' };

class ShellSyntaxError extends Error {}

/** A statement as its command is read: not negated, not in the background (the caller sets those). */
function statementOf(start: number, end: number, redirects: string[], command: Command): Statement {
  return { start, end, negated: false, background: false, redirects, command };
}

const BLANK = /[ \t]/;
/** Characters that end an unquoted word. */
const META = /[ \t\n|&;()<>]/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(
  'if then elif else fi do done case esac while until for select in function time coproc { } ! [[ ]]'.split(' '),
);
/** Builtins mvdan/sh and bash read as declarations: their arguments are assignments, never a server's line. */
const DECLARATIONS = new Set(['export', 'declare', 'local', 'readonly', 'typeset', 'nameref', 'let']);
/** The start of a valid `${…}`: a parameter, then `}` or an operator. */
const PARAMETER =
  /^\$\{(?:[#!]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[[^\]]*\])?[}:\-=?+#%/^,@*]|[#?$!@*-]\})/;
// `&>` takes no descriptor: in `2&>f` the 2 is a word of the command (bash passes it on).
const REDIRECT = /^(?:&>>|&>|(?:[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})?(?:<<<|<<-|<<|<>|<&|>&|>>|>\||<|>))/;

/** Lists nest no deeper than this: scripts people write nest a few levels; a hostile one could exhaust the stack. */
const MAX_DEPTH = 200;

/** Parse a script into statements; throws ShellSyntaxError. */
class Parser {
  private i = 0;
  private heredocs: { delimiter: string; stripTabs: boolean; quoted: boolean }[] = [];
  /** How deep lists nest (`$(`, `(`, `{`, clauses): bounded, so that a hostile script cannot exhaust the stack. */
  private depth = 0;

  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  parse(): Statement[] {
    const statements = this.list(() => false);
    if (this.heredocs.length > 0) this.fail(`unclosed here-document \`${this.heredocs[0].delimiter}\``);
    if (this.i < this.text.length) this.fail(`\`${this.text[this.i]}\` can only be used to close a subshell`);
    return statements;
  }

  // ── Errors ────────────────────────────────────────────────────────────────────────────────────────────────────

  private fail(message: string, at = this.i): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const col = at - before.lastIndexOf('\n');
    throw new ShellSyntaxError(`${line}:${col}: ${message}`);
  }

  // ── Characters and tokens ─────────────────────────────────────────────────────────────────────────────────────

  private at(s: string): boolean {
    return this.text.startsWith(s, this.i);
  }

  /** Skip blanks, line continuations and a comment; never a newline. */
  private blanks(): void {
    for (;;) {
      const c = this.text[this.i];
      if (c !== undefined && BLANK.test(c)) this.i++;
      else if (this.at('\\\n')) this.i += 2;
      else if (c === '#') {
        while (this.i < this.text.length && this.text[this.i] !== '\n') this.i++;
      } else return;
    }
  }

  /** Consume a newline and the here-document bodies it starts. */
  private newline(): void {
    this.i++;
    const pending = this.heredocs;
    this.heredocs = [];
    for (const { delimiter, stripTabs, quoted } of pending) {
      for (;;) {
        if (this.i >= this.text.length) this.fail(`unclosed here-document \`${delimiter}\``);
        // In an unquoted body a line ending in an odd run of backslashes continues on the next: bash joins them
        // before it compares the line with the delimiter.
        let line = '';
        for (;;) {
          let endOfLine = this.text.indexOf('\n', this.i);
          if (endOfLine === -1) endOfLine = this.text.length;
          const part = this.text.slice(this.i, endOfLine);
          this.i = Math.min(endOfLine + 1, this.text.length);
          const continued = !quoted && endOfLine < this.text.length && /(^|[^\\])(\\\\)*\\$/.test(part);
          line += continued ? part.slice(0, -1) : part;
          if (!continued) break;
        }
        if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter) break;
      }
    }
  }

  /** Skip blanks, comments and newlines. */
  private linebreaks(): void {
    for (;;) {
      this.blanks();
      if (this.text[this.i] === '\n') this.newline();
      else return;
    }
  }

  /** The operator at the cursor, longest first, without consuming it. */
  private operator(): string | undefined {
    for (const op of [';;&', '&&', '||', ';;', ';&', '|&', ';', '&', '|', '(', ')']) if (this.at(op)) return op;
    return undefined;
  }

  /** The unquoted reserved word at the cursor (`then` but not `then2` or `"then"`). */
  private reserved(): string | undefined {
    const m = /^(?:[a-z]+|\{|\}|!|\[\[|\]\])/.exec(this.text.slice(this.i, this.i + 9));
    if (!m || !RESERVED.has(m[0])) return undefined;
    const next = this.text[this.i + m[0].length];
    if (next !== undefined && !META.test(next)) return undefined;
    if ((m[0] === '{' || m[0] === '!') && next !== undefined && !/[ \t\n]/.test(next)) return undefined;
    return m[0];
  }

  private expectReserved(word: string): void {
    this.linebreaks();
    if (this.reserved() !== word) this.fail(`expected \`${word}\``);
    this.i += word.length;
  }

  // ── Lists and statements ──────────────────────────────────────────────────────────────────────────────────────

  /** Statements until a reserved word `stop` accepts, `)`, a `case` terminator or the end. */
  private list(stop: (word: string) => boolean): Statement[] {
    return this.nested(() => this.statements(stop));
  }

  /** Read something that nests, one level deeper. */
  private nested<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail(`the script nests lists more than ${MAX_DEPTH} deep`);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  /** Statements up to the reserved word that closes them, and that word. */
  private listUntil(word: string): Statement[] {
    const body = this.list((w) => w === word);
    this.expectReserved(word);
    return body;
  }

  /** Statements up to `)`, after an opening `open` characters long (`(`, `$(`, `<(`). */
  private parenthesized(open: number): Statement[] {
    this.i += open;
    const body = this.list(() => false);
    this.linebreaks();
    if (this.text[this.i] !== ')')
      this.fail(
        `reached ${this.i >= this.text.length ? 'EOF' : `\`${this.text[this.i]}\``} without matching \`(\` with \`)\``,
      );
    this.i++;
    return body;
  }

  private statements(stop: (word: string) => boolean): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      this.linebreaks();
      if (this.i >= this.text.length) return statements;
      const word = this.reserved();
      if (word !== undefined && stop(word)) return statements;
      const op = this.operator();
      if (op === ')' || op === ';;' || op === ';&' || op === ';;&') return statements;
      if (op !== undefined && op !== '(' && !this.at('&>'))
        this.fail(`\`${op}\` can only immediately follow a statement`);
      const statement = this.andOr();
      this.blanks();
      const after = this.operator();
      if (after === ';' || after === '&') {
        if (after === '&') statement.background = true;
        this.i++;
        statement.end = this.i;
      } else if (this.text[this.i] === '\n') this.newline();
      else if (this.i < this.text.length && after !== ')' && after !== ';;' && after !== ';&' && after !== ';;&') {
        // After a compound command (`]]`, `)`, `fi`), bash reads the reserved word that closes the clause directly.
        const next = this.reserved();
        if (next === undefined || !stop(next)) this.fail('a statement must end with a newline, `;` or `&`');
      }
      statements.push(statement);
    }
  }

  private andOr(): Statement {
    let left = this.pipeline();
    for (;;) {
      this.blanks();
      const op = this.at('&&') ? '&&' : this.at('||') ? '||' : undefined;
      if (!op) return left;
      this.i += 2;
      this.linebreaks();
      const right = this.pipeline();
      left = this.binary(op, left, right);
    }
  }

  private pipeline(): Statement {
    this.blanks();
    const start = this.i;
    let negated = false;
    if (this.reserved() === '!' || this.at('!(')) {
      this.i++;
      this.blanks();
      negated = true;
    }
    let left = this.command();
    for (;;) {
      this.blanks();
      const op = this.at('|&') ? '|&' : this.at('|') && !this.at('||') ? '|' : undefined;
      if (!op) break;
      this.i += op.length;
      this.linebreaks();
      left = this.binary(op, left, this.command());
    }
    return negated ? { ...left, start, negated: true } : left;
  }

  private binary(op: '&&' | '||' | '|' | '|&', left: Statement, right: Statement): Statement {
    return statementOf(left.start, right.end, [], { kind: 'binary', op, left, right });
  }

  /** A command with its redirections, as a statement. */
  private command(): Statement {
    this.blanks();
    const start = this.i;
    const redirects: string[] = [];
    const statement = (command: Command) => statementOf(start, this.trailingRedirects(redirects), redirects, command);
    const word = this.reserved();
    if (word === '{') {
      this.i++;
      return statement({ kind: 'group', bodies: [this.listUntil('}')] });
    }
    if (this.at('((')) {
      this.arithmetic(2);
      return statement({ kind: 'hidden' });
    }
    if (this.at('(')) return statement({ kind: 'group', bodies: [this.parenthesized(1)], subshell: true });
    switch (word) {
      case 'if':
        return statement(this.ifClause());
      case 'while':
      case 'until': {
        this.i += word.length;
        const condition = this.listUntil('do');
        return statement({ kind: 'group', bodies: [condition, this.listUntil('done')] });
      }
      case 'for':
      case 'select':
        return statement(this.forClause(word));
      case 'case':
        return statement(this.caseClause());
      case '[[':
        this.testClause();
        return statement({ kind: 'hidden' });
      case 'function':
        this.i += word.length;
        this.blanks();
        if (!this.plainWord()) this.fail('`function` must be followed by a name');
        this.blanks();
        if (this.at('(')) this.emptyParens();
        this.functionBody();
        return statement({ kind: 'hidden' });
      case 'time':
      case 'coproc': {
        this.i += word.length;
        this.blanks();
        if (word === 'time' && this.at('-p') && META.test(this.text[this.i + 2] ?? ' ')) this.i += 2;
        if (word === 'coproc') {
          const name = /^[A-Za-z_][A-Za-z0-9_]*[ \t]+(?=[{(])/.exec(this.text.slice(this.i));
          if (name) this.i += name[0].length;
        }
        this.blanks();
        if (this.i < this.text.length && !/[\n;&|)]/.test(this.text[this.i])) this.pipeline();
        return statement({ kind: 'hidden' });
      }
      case undefined:
        break;
      default:
        this.fail(`\`${word}\` can only be used in its own clause`);
    }
    return this.simple(start);
  }

  /** Redirections after a compound command; the offset after the last of them (or the command). */
  private trailingRedirects(redirects: string[]): number {
    for (let end = this.i; ; end = this.i) {
      this.blanks();
      if (!this.redirect(redirects)) return end;
    }
  }

  private emptyParens(): void {
    this.i++;
    this.blanks();
    if (this.text[this.i] !== ')') this.fail('a function name must be followed by `()`');
    this.i++;
  }

  private functionBody(): void {
    this.linebreaks();
    const body = this.command();
    if (body.command.kind !== 'group' && body.command.kind !== 'hidden')
      this.fail('a function body must be a compound command');
  }

  private ifClause(): Command {
    const bodies: Statement[][] = [];
    this.i += 2;
    for (;;) {
      bodies.push(this.listUntil('then'));
      bodies.push(this.list((w) => w === 'elif' || w === 'else' || w === 'fi'));
      this.linebreaks();
      const word = this.reserved();
      if (word === 'elif') {
        this.i += 4;
        continue;
      }
      if (word === 'else') {
        this.i += 4;
        bodies.push(this.list((w) => w === 'fi'));
      }
      this.expectReserved('fi');
      return { kind: 'group', bodies };
    }
  }

  private forClause(word: string): Command {
    this.i += word.length;
    this.blanks();
    if (word === 'for' && this.at('((')) this.arithmetic(2);
    else {
      const name = this.plainWord();
      if (!name || !NAME.test(name)) this.fail(`\`${word}\` must be followed by a name`);
      this.linebreaks();
      if (this.reserved() === 'in') {
        this.i += 2;
        for (;;) {
          this.blanks();
          if (!this.word()) break;
        }
      }
    }
    this.blanks();
    if (this.text[this.i] === ';') this.i++;
    this.linebreaks();
    if (this.reserved() === '{') {
      this.i++;
      return { kind: 'group', bodies: [this.listUntil('}')] };
    }
    this.expectReserved('do');
    return { kind: 'group', bodies: [this.listUntil('done')] };
  }

  private caseClause(): Command {
    this.i += 4;
    this.blanks();
    if (!this.word()) this.fail('`case` must be followed by a word');
    this.expectReserved('in');
    const bodies: Statement[][] = [];
    for (;;) {
      this.linebreaks();
      if (this.reserved() === 'esac') break;
      if (this.at('(')) this.i++;
      for (;;) {
        this.blanks();
        if (!this.word()) this.fail('a case pattern must be a word');
        this.blanks();
        if (this.text[this.i] !== '|') break;
        this.i++;
      }
      if (this.text[this.i] !== ')') this.fail('case patterns must be followed by `)`');
      this.i++;
      bodies.push(this.list((w) => w === 'esac'));
      this.linebreaks();
      const op = this.operator();
      if (op === ';;' || op === ';&' || op === ';;&') this.i += op.length;
      else if (this.reserved() !== 'esac') this.fail('a case item must end with `;;`');
    }
    this.i += 4;
    return { kind: 'group', bodies };
  }

  /** `[[ … ]]`: words and operators up to `]]`; a regex after `=~` may hold `(`, `)` and `|`. */
  private testClause(): void {
    this.i += 2;
    let regex = false;
    for (;;) {
      this.linebreaks();
      if (this.i >= this.text.length) this.fail('reached EOF without matching `[[` with `]]`');
      if (this.reserved() === ']]') {
        this.i += 2;
        return;
      }
      if (regex) {
        this.regexWord();
        regex = false;
        continue;
      }
      const op = /^(?:&&|\|\||[()!<>])/.exec(this.text.slice(this.i, this.i + 2));
      if (op) {
        this.i += op[0].length;
        continue;
      }
      const word = this.word();
      if (!word) this.fail(`\`${this.text[this.i]}\` is not valid inside \`[[\``);
      regex = word.source === '=~';
    }
  }

  private regexWord(): void {
    let depth = 0;
    const start = this.i;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (depth === 0 && /[ \t\n]/.test(c)) break;
      if (c === '(') depth++;
      else if (c === ')') depth--;
      if (c === '\\') this.i += 2;
      else if (c === "'" || c === '"' || c === '$' || c === '`') this.wordPart(new WordBuilder());
      else this.i++;
    }
    if (this.i === start) this.fail('`=~` must be followed by a regex');
  }

  /** `((` or `$((`: an arithmetic expression up to its `))`. `open` is how many characters to skip. */
  private arithmetic(open: number): void {
    const start = this.i;
    this.i += open;
    let depth = 0;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0 && this.text[this.i + 1] === ')') {
          this.i += 2;
          return;
        }
        depth--;
        if (depth < 0) break;
      } else if (c === "'" || c === '"' || c === '`' || c === '$') {
        this.wordPart(new WordBuilder());
        continue;
      }
      this.i++;
    }
    this.fail('reached EOF without matching `((` with `))`', start);
  }

  /** A simple command: assignments, words and redirections. */
  private simple(start: number): Statement {
    const words: ScriptWord[] = [];
    const redirects: string[] = [];
    let declaration = false;
    let assigns = false;
    let end = this.i;
    for (; ; end = this.i) {
      this.blanks();
      if (this.redirect(redirects)) continue;
      const word = this.word();
      if (!word) break;
      if (words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word.source)) {
        if (this.text[this.i] === '(' && /=$/.test(word.source)) this.arrayValue();
        assigns = true;
        continue;
      }
      if (words.length === 0 && word.literal !== undefined && DECLARATIONS.has(word.literal)) declaration = true;
      if (words.length === 0 && this.isFunctionName(word)) {
        this.emptyParens();
        this.functionBody();
        return statementOf(start, this.i, redirects, { kind: 'hidden' });
      }
      if (declaration && this.text[this.i] === '(' && /=$/.test(word.source)) this.arrayValue();
      words.push(word);
    }
    const command: Command = declaration
      ? { kind: 'hidden' }
      : words.length === 0 && !assigns
        ? { kind: 'none' }
        : { kind: 'call', words };
    if (this.i === start)
      this.fail(
        this.i >= this.text.length
          ? 'reached EOF where a command was expected'
          : `\`${this.text[this.i]}\` is not a valid start of a command`,
      );
    return statementOf(start, end, redirects, command);
  }

  /** `name ()` at the start of a command: a function definition. */
  private isFunctionName(word: ScriptWord): boolean {
    if (word.literal === undefined || !/^[^$`'"=]+$/.test(word.source)) return false;
    const rest = /^[ \t]*\(/.exec(this.text.slice(this.i));
    if (!rest) return false;
    this.i += rest[0].length - 1;
    return true;
  }

  /** `a=(x y)`: the array's words up to `)`. */
  private arrayValue(): void {
    this.i++;
    for (;;) {
      this.linebreaks();
      if (this.text[this.i] === ')') {
        this.i++;
        return;
      }
      if (!this.word()) this.fail('reached EOF without matching `(` with `)`');
    }
  }

  /** A redirection at the cursor, its target word and any here-document it opens. */
  private redirect(redirects: string[]): boolean {
    if (this.at('<(') || this.at('>(')) return false;
    const m = REDIRECT.exec(this.text.slice(this.i, this.i + 40));
    if (!m) return false;
    const op = m[0];
    this.i += op.length;
    this.blanks();
    const target = this.word();
    if (!target) this.fail(`\`${op}\` must be followed by a word`);
    const bare = op.replace(/^(?:[0-9]+|\{\w+\})/, '');
    if (bare === '<<' || bare === '<<-') {
      // The delimiter is the word after quote removal; a quoted one (any quote or backslash in it) keeps the body as
      // written. One that expands something is not a delimiter bash would match: abstain.
      if (target.literal === undefined) this.fail('a here-document delimiter must be a plain word');
      const quoted = /['"\\]/.test(target.source);
      this.heredocs.push({ delimiter: target.literal, stripTabs: op.endsWith('-'), quoted });
    }
    redirects.push(op);
    return true;
  }

  /** A plain unquoted word (a name), or undefined. */
  private plainWord(): string | undefined {
    const m = /^[^\s|&;()<>'"\\$`]+/.exec(this.text.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  // ── Words ─────────────────────────────────────────────────────────────────────────────────────────────────────

  /** The word at the cursor, or undefined at a blank, an operator or the end. */
  private word(): ScriptWord | undefined {
    const start = this.i;
    const builder = new WordBuilder();
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if ((c === '<' || c === '>') && this.text[this.i + 1] === '(') {
        builder.expands();
        this.parenthesized(2);
        continue;
      }
      if (/[@!+*?]/.test(c) && this.text[this.i + 1] === '(') {
        this.extglob(builder);
        continue;
      }
      if (META.test(c)) break;
      this.wordPart(builder);
    }
    if (this.i === start) return undefined;
    // A line continuation after the word belongs between words: an edit after the word goes before it.
    let end = this.i;
    while (end - 2 > start && this.text.startsWith('\\\n', end - 2)) end -= 2;
    return { source: this.text.slice(start, end), start, end, literal: builder.value() };
  }

  private extglob(builder: WordBuilder): void {
    builder.expands();
    this.i += 2;
    let depth = 1;
    while (depth > 0) {
      const c = this.text[this.i];
      if (c === undefined || c === '\n') this.fail('reached EOF without matching `(` with `)`');
      if (c === '(') depth++;
      else if (c === ')') depth--;
      this.i++;
    }
  }

  /** One part of a word at the cursor: a character, an escape, a quote or an expansion. */
  private wordPart(builder: WordBuilder): void {
    const c = this.text[this.i];
    if (c === '\\') {
      if (this.text[this.i + 1] === '\n') this.i += 2;
      else if (this.i + 1 >= this.text.length) {
        // A backslash that ends the script is itself (bash passes `\`).
        builder.add('\\');
        this.i++;
      } else {
        builder.add(this.text[this.i + 1]);
        this.i += 2;
      }
      return;
    }
    if (c === "'") {
      const end = this.text.indexOf("'", this.i + 1);
      if (end === -1) this.fail("reached EOF without closing quote `'`");
      builder.add(this.text.slice(this.i + 1, end));
      this.i = end + 1;
      return;
    }
    if (c === '"') {
      this.doubleQuoted(builder);
      return;
    }
    if (c === '`') {
      this.backquoted();
      builder.expands();
      return;
    }
    if (c === '$') {
      this.dollar(builder);
      return;
    }
    builder.add(c);
    this.i++;
  }

  private doubleQuoted(builder: WordBuilder): void {
    const open = this.i;
    this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail('reached EOF without closing quote `"`', open);
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') {
        const next = this.text[this.i + 1];
        if (next === '\n') {
          this.i += 2;
          continue;
        }
        builder.add(next !== undefined && '$`"\\'.includes(next) ? next : `\\${next ?? ''}`);
        this.i += 2;
      } else if (c === '`') {
        this.backquoted();
        builder.expands();
      } else if (c === '$') this.dollar(builder, true);
      else {
        builder.add(c);
        this.i++;
      }
    }
  }

  private backquoted(): void {
    const open = this.i;
    this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail('reached EOF without closing quote `` ` ``', open);
      if (c === '\\') this.i += 2;
      else if (c === '`') {
        this.i++;
        return;
      } else this.i++;
    }
  }

  /** `$…` at the cursor: an expansion, `$'…'`, `$"…"`, or a plain `$`. */
  private dollar(builder: WordBuilder, quoted = false): void {
    const next = this.text[this.i + 1];
    if (next === '(' && this.text[this.i + 2] === '(') {
      builder.expands();
      this.arithmetic(3);
      return;
    }
    if (next === '(') {
      builder.expands();
      this.parenthesized(2);
      return;
    }
    if (next === '{') {
      builder.expands();
      this.nested(() => this.bracedBody());
      return;
    }
    if (next === '[') {
      // `$[ … ]`: bash's old arithmetic.
      builder.expands();
      const end = this.text.indexOf(']', this.i);
      if (end === -1) this.fail('reached EOF without matching `$[` with `]`');
      this.i = end + 1;
      return;
    }
    if (!quoted && next === "'") {
      const open = this.i;
      this.i += 2;
      let value = '';
      let escaped = false;
      for (;;) {
        const c = this.text[this.i];
        if (c === undefined) this.fail("reached EOF without closing quote `'`", open);
        if (c === "'") break;
        if (c === '\\') {
          escaped = true;
          this.i += 2;
        } else {
          value += c;
          this.i++;
        }
      }
      this.i++;
      // An ANSI-C string with escapes is read only where it has none.
      if (escaped) builder.expands();
      else builder.add(value);
      return;
    }
    if (!quoted && next === '"') {
      this.i++;
      this.doubleQuoted(builder);
      return;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.text.slice(this.i + 1, this.i + 200));
    if (name) {
      builder.expands();
      this.i += 1 + name[0].length;
      return;
    }
    builder.add('$');
    this.i++;
  }

  /** `${…}` up to its closing brace, with nested quotes and expansions. */
  private bracedBody(): void {
    const open = this.i;
    if (!PARAMETER.test(this.text.slice(this.i, this.i + 200))) this.fail('not a valid parameter expansion');
    this.i += 2;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.fail('reached EOF without matching `${` with `}`', open);
      if (c === '}') {
        this.i++;
        return;
      }
      if (c === '\\') this.i += 2;
      else if (c === "'" || c === '"' || c === '`' || c === '$') this.wordPart(new WordBuilder());
      else this.i++;
    }
  }
}

/** A word's value as its parts are read; undefined once a part expands. */
class WordBuilder {
  private text: string | undefined = '';
  add(part: string): void {
    if (this.text !== undefined) this.text += part;
  }
  expands(): void {
    this.text = undefined;
  }
  value(): string | undefined {
    return this.text;
  }
}

/** The statements of a script, or the parser's message. Exported for the tests that hold them against sh-syntax. */
export function parseStatements(text: string): { ok: true; statements: Statement[] } | { ok: false; message: string } {
  try {
    return { ok: true, statements: new Parser(text).parse() };
  } catch (caught) {
    if (caught instanceof ShellSyntaxError) return { ok: false, message: caught.message };
    // The depth bound keeps well inside the stack; should a script still exhaust it, it is not read.
    if (caught instanceof RangeError) return { ok: false, message: 'the script nests too deeply to read' };
    throw caught;
  }
}

/** Parsed scripts by text: manifests repeat the same script across workloads. */
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
  const parsed = parseStatements(text);
  if (!parsed.ok) return parsed;
  const calls: ScriptCall[] = [];
  let traps = false;
  type Frame = Pick<ScriptCall, 'piped' | 'nested' | 'lastAlone' | 'background' | 'subshell'> & {
    statement: Statement;
  };
  // Depth first, in script order, with an explicit stack: a long `a && b && …` chain nests as deep as it is long.
  const { statements } = parsed;
  const stack: Frame[] = statements
    .map((statement, i) => ({
      statement,
      piped: false,
      nested: false,
      lastAlone: i === statements.length - 1,
      background: false,
      subshell: false,
    }))
    .reverse();
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { statement } = frame;
    const { command } = statement;
    const background = frame.background || statement.background;
    if (command.kind === 'call') {
      const { words } = command;
      if (words[0]?.literal === 'trap') traps = true;
      calls.push({
        words,
        exec: words[0]?.literal === 'exec',
        subshell: frame.subshell,
        background,
        piped: frame.piped,
        lastAlone: frame.lastAlone && !background,
        nested: frame.nested,
        redirectedOrNegated: statement.redirects.length > 0 || statement.negated,
      });
      continue;
    }
    const inner = { nested: true, lastAlone: false, background, subshell: frame.subshell };
    if (command.kind === 'binary') {
      const piped = frame.piped || command.op === '|' || command.op === '|&';
      stack.push({ ...inner, piped, statement: command.right }, { ...inner, piped, statement: command.left });
    } else if (command.kind === 'group') {
      const subshell = frame.subshell || command.subshell === true;
      const children = command.bodies.flat();
      for (let k = children.length - 1; k >= 0; k--)
        stack.push({ ...inner, piped: frame.piped, subshell, statement: children[k] });
    }
  }
  return { ok: true, calls, traps };
}
