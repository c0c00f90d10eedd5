/**
 * The manifest, with Copy and Download. The default manifest comes highlighted from the server and stays as it
 * is until the first change; a changed manifest shows as plain text at once and highlighted when the worker
 * answers. While an input is invalid, Copy and Download are disabled and the area names the fields to fix.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { downloadText, useCopy } from './yaml-view.tsx';

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

/** The text's highlighted HTML once the worker has answered for exactly this text; null before, or for null text. */
function useHighlightedHtml(text: string | null): string | null {
  const [result, setResult] = useState<{ code: string; html: string } | null>(null);
  useEffect(() => {
    if (text === null) return;
    let cancelled = false;
    import('./highlight-client.ts')
      .then((m) => m.highlightManifestHtml(text))
      .then((html) => {
        if (!cancelled) setResult({ code: text, html });
      })
      .catch(() => {
        /* plain text stays: highlighting is an enhancement */
      });
    return () => {
      cancelled = true;
    };
  }, [text]);
  return result && result.code === text ? result.html : null;
}

/** "A", "A and B", "A, B and C". */
function listOf(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The manifest view. The `<pre data-testid="manifest">` text is exactly what Copy puts on the clipboard. */
export function ManifestOutput({ manifest, serverHtml, fileName, pending = false, invalid = [] }: Props) {
  const pre = useRef<HTMLPreElement>(null);
  const html = useHighlightedHtml(manifest);
  const textNow = () => manifest ?? pre.current?.textContent ?? '';
  const { onCopy, status } = useCopy(textNow);
  const onDownload = () => downloadText(textNow(), fileName);
  const blocked = invalid.length > 0;
  const highlighted = manifest === null || html !== null;

  let code;
  if (manifest === null) code = <code>{serverHtml}</code>;
  else if (html !== null) code = <code dangerouslySetInnerHTML={{ __html: html }} />;
  else code = <code>{manifest}</code>;

  return (
    <div class="gen-output">
      <div class="gen-output-bar">
        <h2 id="gen-manifest-heading">Manifest</h2>
        <div class="gen-actions">
          <button
            type="button"
            onClick={onCopy}
            data-testid="copy"
            disabled={blocked || undefined}
            aria-describedby={blocked ? 'gen-manifest-blocked' : undefined}
          >
            Copy
          </button>
          <button
            type="button"
            onClick={onDownload}
            data-testid="download"
            disabled={blocked || undefined}
            aria-describedby={blocked ? 'gen-manifest-blocked' : undefined}
          >
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
