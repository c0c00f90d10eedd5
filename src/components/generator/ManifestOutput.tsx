/**
 * The manifest, with Copy and Download. The default manifest comes highlighted from the server and stays as it
 * is until the first change. After a change the manifest's text is shown at once, line by line: a line whose text
 * was highlighted before keeps its colours, a new line shows as plain text, and all of them take the worker's
 * colours when it answers (manifest-lines.ts). While an input is invalid, Copy and Download are disabled and the area names the fields to fix.
 */
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { knownLinesOf, linesToRender, type HighlightedLines, type ManifestLine } from './manifest-lines.ts';
import { downloadText, useCopy } from './yaml-view.tsx';
import { listOf } from './field-visibility.ts';

/** An invalid input, as the manifest area names it. */
export interface InvalidField {
  flag: string;
  label: string;
}

interface Props {
  /** The manifest text, or null for the server's default (shown from `serverHtml`). */
  manifest: string | null;
  /** The default manifest, highlighted at build time (the island's `manifestHtml` slot). */
  serverHtml?: ComponentChildren;
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
function useManifestLines(
  text: string | null,
  pre: RefObject<HTMLPreElement>,
): { lines: ManifestLine[]; highlighted: boolean } {
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

/** The manifest view. The `<pre data-testid="manifest">` text is exactly what Copy puts on the clipboard. */
export function ManifestOutput({ manifest, serverHtml, fileName, pending = false, invalid = [] }: Props) {
  const pre = useRef<HTMLPreElement>(null);
  const { lines, highlighted } = useManifestLines(manifest, pre);
  const textNow = () => manifest ?? pre.current?.textContent ?? '';
  const { onCopy, status } = useCopy(textNow);
  const onDownload = () => downloadText(textNow(), fileName);
  const blocked = invalid.length > 0;
  const off = { disabled: blocked || undefined, 'aria-describedby': blocked ? 'gen-manifest-blocked' : undefined };

  // Line i keeps its element across changes and only a changed line's content is replaced: no element is inserted
  // into or removed from <code> unless the line count changes. An insertion there makes Chromium restyle all of
  // <code>'s 700 spans (Starlight's sibling rules in .sl-markdown-content invalidate the whole subtree).
  const code =
    manifest === null ? (
      <code>{serverHtml}</code>
    ) : (
      <code>
        {lines.map((line, i) =>
          line.html === null ? (
            <span key={i} class="line">{`${line.text}\n`}</span>
          ) : (
            <span key={i} class="line" dangerouslySetInnerHTML={{ __html: line.html }} />
          ),
        )}
      </code>
    );

  return (
    <div class="gen-output">
      <div class="gen-output-bar">
        <h2 id="gen-manifest-heading">Manifest</h2>
        <div class="gen-actions">
          <button type="button" onClick={onCopy} data-testid="copy" {...off}>
            Copy
          </button>
          <button type="button" onClick={onDownload} data-testid="download" {...off}>
            {`Download ${fileName}`}
          </button>
          <span role="status" class="gen-copy-status">
            {status}
          </span>
        </div>
      </div>
      <p class="gen-manifest-blocked" id="gen-manifest-blocked" role="status" data-testid="manifest-blocked">
        {blocked ? (
          <>
            Copy and Download are off until {invalid.length === 1 ? 'this input is' : 'these inputs are'} fixed:{' '}
            {listOf(invalid.map((f) => `${f.label} (--${f.flag})`))}. Meanwhile the manifest below uses the fallback
            values the plan names.
          </>
        ) : null}
      </p>
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
  );
}
