/** What the generator's manifest and the checker's fixed manifest share: lazy highlighting, Copy and Download. */
import { useEffect, useState } from 'preact/hooks';
import type { HighlightToken } from './highlight.ts';
import { kindClass } from './yaml-themes.ts';
import './yaml-view.css';

/** The text's highlighted lines once shiki has loaded (after `delayMs`), or null while the plain text shows. */
export function useHighlighted(text: string, delayMs = 0): HighlightToken[][] | null {
  const [tokens, setTokens] = useState<{ code: string; lines: HighlightToken[][] } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const handle = setTimeout(() => {
      import('./highlight.ts')
        .then((m) => m.highlightYaml(text.replace(/\n$/, '')))
        .then((lines) => {
          if (!cancelled) setTokens({ code: text, lines });
        })
        .catch(() => {
          /* plain text stays: highlighting is an enhancement */
        });
    }, delayMs);
    return () => {
      cancelled = true;
      clearTimeout(handle);
    };
  }, [text]);
  return tokens && tokens.code === text ? tokens.lines : null;
}

const COPY_STATUS = {
  idle: '',
  copied: 'Copied to the clipboard.',
  failed: 'Copy failed: select the text and copy it.',
};

/**
 * Copy `text` (or what a function gives at the click) to the clipboard; `status` is the sentence for 2.5 s after.
 * After a copy the button itself says so (`copied`) and the sentence is for screen readers only: shown, it covered
 * the first line under the buttons (a file tab). A failure is shown, since the reader has to act on it.
 */
export function useCopy(text: string | (() => string)) {
  const [state, setState] = useState<keyof typeof COPY_STATUS>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const handle = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(handle);
  }, [state]);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return { onCopy, status: COPY_STATUS[state], copied: state === 'copied' };
}

/** Save `text` as a YAML file through a temporary link. */
export function downloadText(text: string, fileName: string): void {
  downloadBlob(new Blob([text], { type: 'application/yaml' }), fileName);
}

/** Save a blob (a YAML file, a zip of several) through a temporary link. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The `<code>` of a manifest: highlighted lines when there are some, else the plain text. Its text is `text` exactly. */
export function YamlCode({ text, lines }: { text: string; lines: HighlightToken[][] | null }) {
  return (
    <code>
      {lines
        ? lines.map((line, i) => (
            <span class="line" key={i}>
              {line.map((t, j) => (
                <span key={j} class={kindClass(t.kind)}>
                  {t.content}
                </span>
              ))}
              {'\n'}
            </span>
          ))
        : text}
    </code>
  );
}

/**
 * Copy's label: "Copy", and "Copied" for a moment after. Both sit in one grid cell with the inactive one hidden, so
 * the button is as wide as the wider and nothing beside it moves.
 */
export function CopyLabel({ copied }: { copied: boolean }) {
  return (
    <span class="gen-swap">
      <span aria-hidden={copied ? 'true' : 'false'}>Copy</span>
      <span aria-hidden={copied ? 'false' : 'true'}>Copied</span>
    </span>
  );
}

/** The live region of `useCopy`'s sentence: read out always, shown only when the copy failed. */
export function CopyStatus({ status, copied }: { status: string; copied: boolean }) {
  return (
    <span role="status" class={copied ? 'gen-copy-status sr-only' : 'gen-copy-status'}>
      {status}
    </span>
  );
}
