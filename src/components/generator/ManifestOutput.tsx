/**
 * The manifest, with Copy and Download; an output form of several files shows one tab per file, Copy and Download
 * for the file shown and a zip of them all. The default manifest comes highlighted from the server and stays as it
 * is until the first change. The lines a change made are marked for two seconds. After a change the manifest's text is shown at once, line by line: a line whose text
 * was highlighted before keeps its colours, a new line shows as plain text, and all of them take the worker's
 * colours when it answers (manifest-lines.ts). While an input is invalid, Copy and Download are disabled and the area names the fields to fix.
 */
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { OutputFile } from '../../emit/files.ts';
import type { OutputForm } from '../../model/fields.ts';
import { diffLines } from '../../check/fix/diff.ts';
import { knownLinesOf, linesToRender, type HighlightedLines } from './manifest-lines.ts';
import { CopyLabel, CopyStatus, downloadBlob, downloadText, useCopy } from './yaml-view.tsx';
import { listOf } from './field-visibility.ts';

/** An invalid input, as the manifest area names it. */
export interface InvalidField {
  flag: string;
  label: string;
}

interface Props {
  /** The output form's files, or null for the server's default manifest (shown from `serverHtml`). */
  files: OutputFile[] | null;
  form: OutputForm;
  /** The default manifest, highlighted at build time (the island's `manifestHtml` slot). */
  serverHtml?: ComponentChildren;
  /** The name a one-file form downloads as (`<name>.yaml`); the zip of several is named after it too. */
  fileName: string;
  /** True while the emitter is still loading after a change: the text shown is the previous manifest. */
  pending?: boolean;
  /** Inputs that are invalid now: while there are any, the manifest cannot be copied or downloaded. */
  invalid?: InvalidField[];
}

/** The server's highlighted lines in the `<pre>` (the default manifest), each line's text mapped to its HTML. */
function serverLinesIn(pre: HTMLPreElement | null): Map<string, string> {
  const known = new Map<string, string>();
  for (const line of pre?.querySelectorAll(':scope > code > .line') ?? []) {
    const text = (line.textContent ?? '').replace(/\n$/, '');
    if (!known.has(text)) known.set(text, line.innerHTML);
  }
  return known;
}

/**
 * The lines of `text` to render, and whether all of them are highlighted for exactly this text. The worker's answer
 * comes a moment after each change; until then a line keeps the colours its text had in the last answer (or in the
 * server's highlighted default, before the first answer).
 */
function useManifestLines(text: string | null, pre: RefObject<HTMLPreElement>) {
  const [answer, setAnswer] = useState<HighlightedLines | null>(null);
  const serverLines = useRef<Map<string, string> | null>(null);
  // Read while the <pre> still holds the server's lines: on the first render with a changed text.
  if (text !== null && serverLines.current === null) serverLines.current = serverLinesIn(pre.current);
  useEffect(() => {
    if (text === null) return;
    let cancelled = false;
    import('./highlight-client.ts')
      .then((m) => m.highlightManifestLines(text))
      .then((lines) => {
        if (!cancelled) setAnswer({ code: text, lines });
      })
      .catch(() => {
        /* plain text stays: highlighting is an enhancement */
      });
    return () => {
      cancelled = true;
    };
  }, [text]);
  const known = useMemo(() => (answer ? knownLinesOf(answer) : null), [answer]);
  if (text === null) return { lines: [], highlighted: true };
  return {
    lines: linesToRender(text, answer, known ?? serverLines.current ?? new Map()),
    highlighted: answer?.code === text,
  };
}

/** How long the lines a change made stay marked. */
const MARK_MS = 2000;
const NONE: ReadonlySet<number> = new Set();

/**
 * The indices of the lines the last change made in the file shown (added or rewritten, by a line diff with the
 * text shown before), for MARK_MS after it. A switch to another file or output form marks nothing.
 */
function useChangedLines(key: string, text: string | null, pre: RefObject<HTMLPreElement>): ReadonlySet<number> {
  // The server's default is the bundle's one file; its text is read from the <pre> on the first change.
  const previous = useRef<{ key: string; text: string } | null>(null);
  const marks = useMemo(() => {
    if (text === null) return null;
    const before = previous.current ?? { key: 'bundle', text: pre.current?.textContent ?? '' };
    previous.current = { key, text };
    if (before.key !== key || before.text === text || before.text === '') return null;
    const lines = diffLines(before.text, text).flatMap((l) => (l.kind === '+' && l.newLine ? [l.newLine - 1] : []));
    return lines.length > 0 ? { lines: new Set(lines) } : null;
  }, [key, text]);
  const [expired, setExpired] = useState<object | null>(null);
  useEffect(() => {
    if (!marks) return;
    const handle = setTimeout(() => setExpired(marks), MARK_MS);
    return () => clearTimeout(handle);
  }, [marks]);
  return marks && expired !== marks ? marks.lines : NONE;
}

/** A zip of the files (fflate, loaded on the click), saved as `zipName`. */
export async function downloadZip(files: readonly Pick<OutputFile, 'name' | 'text'>[], zipName: string): Promise<void> {
  const { strToU8, zipSync } = await import('fflate');
  const zipped = zipSync(Object.fromEntries(files.map((f) => [f.name, strToU8(f.text)])));
  downloadBlob(new Blob([zipped], { type: 'application/zip' }), zipName);
}

/** The manifest view. The `<pre data-testid="manifest">` text is exactly what Copy puts on the clipboard. */
export function ManifestOutput({ files, form, serverHtml, fileName, pending = false, invalid = [] }: Props) {
  const pre = useRef<HTMLPreElement>(null);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const multi = files !== null && files.length > 1;
  const index = Math.max(0, files?.findIndex((f) => f.name === chosen) ?? 0);
  const file = files?.[index] ?? null;
  const manifest = file?.text ?? null;
  const { lines, highlighted } = useManifestLines(manifest, pre);
  const changedLines = useChangedLines(multi ? `${form}/${file!.name}` : form, manifest, pre);
  const textNow = () => manifest ?? pre.current?.textContent ?? '';
  const { onCopy, status, copied } = useCopy(textNow);
  const shownName = multi ? file!.name : fileName;
  const onDownload = () => downloadText(textNow(), shownName);
  const zipName = fileName.replace(/\.yaml$/, `-${form}.zip`);
  const blocked = invalid.length > 0;
  const off = { disabled: blocked || undefined, 'aria-describedby': blocked ? 'gen-manifest-blocked' : undefined };

  // Arrow keys, Home and End move between the tabs and show the file (WAI-ARIA tabs, automatic activation).
  const onTabKey = (e: KeyboardEvent) => {
    if (!multi) return;
    const count = files.length;
    const to = new Map([
      ['ArrowRight', (index + 1) % count],
      ['ArrowLeft', (index + count - 1) % count],
      ['Home', 0],
      ['End', count - 1],
    ]).get(e.key);
    if (to === undefined) return;
    e.preventDefault();
    setChosen(files[to].name);
    tabs.current[to]?.focus();
  };

  // Line i keeps its element across changes and only a changed line's content is replaced: no element is inserted
  // into or removed from <code> unless the line count changes. An insertion there makes Chromium restyle all of
  // <code>'s 700 spans (Starlight's sibling rules in .sl-markdown-content invalidate the whole subtree).
  const lineClass = (i: number) => (changedLines.has(i) ? 'line is-changed' : 'line');
  const code =
    manifest === null ? (
      <code>{serverHtml}</code>
    ) : (
      <code>
        {lines.map((line, i) =>
          line.html === null ? (
            <span key={i} class={lineClass(i)}>{`${line.text}\n`}</span>
          ) : (
            <span key={i} class={lineClass(i)} dangerouslySetInnerHTML={{ __html: line.html }} />
          ),
        )}
      </code>
    );

  return (
    <div class="gen-output" id="gen-output">
      <div class="gen-output-bar">
        <h2 id="gen-manifest-heading">Manifest</h2>
        <div class="gen-actions">
          {/* With several files the tab names the file: the buttons say it to assistive technology only. */}
          <button
            type="button"
            onClick={onCopy}
            data-testid="copy"
            aria-label={multi ? `Copy ${shownName}` : undefined}
            {...off}
          >
            <CopyLabel copied={copied} />
          </button>
          <button
            type="button"
            onClick={onDownload}
            data-testid="download"
            aria-label={multi ? `Download ${shownName}` : undefined}
            {...off}
          >
            {multi ? 'Download' : `Download ${shownName}`}
          </button>
          {multi ? (
            <button
              type="button"
              onClick={() => void downloadZip(files, zipName)}
              data-testid="download-zip"
              aria-label={`Download all (zip): ${zipName}`}
              {...off}
            >
              Download all (zip)
            </button>
          ) : null}
          <CopyStatus status={status} copied={copied} />
        </div>
      </div>
      {multi ? (
        <div class="gen-tabs" role="tablist" aria-label="Files" data-testid="file-tabs" onKeyDown={onTabKey}>
          {files.map((f, i) => (
            <button
              key={f.name}
              ref={(el) => {
                tabs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`gen-tab-${i}`}
              aria-selected={i === index ? 'true' : 'false'}
              aria-controls="gen-manifest-panel"
              tabIndex={i === index ? 0 : -1}
              title={f.purpose}
              onClick={() => setChosen(f.name)}
            >
              {f.name}
            </button>
          ))}
        </div>
      ) : null}
      <p class="gen-manifest-blocked" id="gen-manifest-blocked" role="status" data-testid="manifest-blocked">
        {blocked ? (
          <>
            Copy and Download are off until {invalid.length === 1 ? 'this input is' : 'these inputs are'} fixed:{' '}
            {listOf(invalid.map((f) => `${f.label} (--${f.flag})`))}. Meanwhile the manifest below uses the fallback
            values the plan names.
          </>
        ) : null}
      </p>
      <div
        id="gen-manifest-panel"
        class="gen-manifest-panel"
        role={multi ? 'tabpanel' : undefined}
        aria-labelledby={multi ? `gen-tab-${index}` : undefined}
      >
        {multi ? <p class="gen-file-purpose" data-testid="file-purpose">{`${file!.name}: ${file!.purpose}.`}</p> : null}
        <pre
          ref={pre}
          class={`gen-manifest${highlighted ? ' is-highlighted' : ''}`}
          data-testid="manifest"
          tabIndex={0}
          aria-labelledby="gen-manifest-heading"
          aria-busy={pending ? 'true' : undefined}
          data-pending={pending ? 'true' : 'false'}
          data-blocked={blocked ? 'true' : undefined}
        >
          {code}
        </pre>
      </div>
    </div>
  );
}
