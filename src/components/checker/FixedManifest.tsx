/** The manifest with every fix applied: highlighted once shiki has loaded, with Copy, Download and "check it". */
import { useEffect, useState } from 'preact/hooks';
import type { HighlightToken } from '../generator/highlight.ts';

interface Props {
  text: string;
  edits: number;
  /** Edits not written because their path goes through a YAML alias. */
  skipped: number;
  /** Put the fixed manifest in the text area, to check it again. */
  onCheckAgain: () => void;
}

type CopyState = 'idle' | 'copied' | 'failed';

/** The fixed manifest. The `<pre data-testid="fixed-manifest">` text is exactly what Copy puts on the clipboard. */
export function FixedManifest({ text, edits, skipped, onCheckAgain }: Props) {
  const [tokens, setTokens] = useState<{ code: string; lines: HighlightToken[][] } | null>(null);
  const [copyState, setCopyState] = useState<CopyState>('idle');

  useEffect(() => {
    let cancelled = false;
    const handle = setTimeout(() => {
      import('../generator/highlight.ts')
        .then((m) => m.highlightYaml(text.replace(/\n$/, '')))
        .then((lines) => { if (!cancelled) setTokens({ code: text, lines }); })
        .catch(() => { /* plain text stays */ });
    }, 150);
    return () => { cancelled = true; clearTimeout(handle); };
  }, [text]);

  useEffect(() => {
    if (copyState === 'idle') return;
    const handle = setTimeout(() => setCopyState('idle'), 2500);
    return () => clearTimeout(handle);
  }, [copyState]);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };
  const onDownload = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'fixed-manifest.yaml';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const highlighted = tokens && tokens.code === text ? tokens.lines : null;
  return (
    <section class="chk-fixed" aria-labelledby="chk-fixed-heading">
      <div class="gen-output-bar">
        <h2 id="chk-fixed-heading">Fixed manifest</h2>
        <div class="gen-actions">
          <button type="button" onClick={onCopy} data-testid="copy-fixed">Copy</button>
          <button type="button" onClick={onDownload}>Download</button>
          <button type="button" onClick={onCheckAgain} data-testid="check-fixed">Check the fixed manifest</button>
          <span role="status" class="gen-copy-status">
            {copyState === 'copied' ? 'Copied to the clipboard.' : copyState === 'failed' ? 'Copy failed: select the text and copy it.' : ''}
          </span>
        </div>
      </div>
      <p class="chk-hint">
        {edits} change{edits === 1 ? '' : 's'} applied; your comments and key order are kept, and each value the checker wrote says how it was derived.
        {skipped > 0 ? ` ${skipped} change${skipped === 1 ? '' : 's'} could not be written because the path goes through a YAML alias (*name); make ${skipped === 1 ? 'it' : 'them'} by hand.` : ''}
      </p>
      <pre class={`gen-manifest${highlighted ? ' is-highlighted' : ''}`} data-testid="fixed-manifest" tabIndex={0} aria-labelledby="chk-fixed-heading">
        <code>
          {highlighted
            ? highlighted.map((line, i) => (
              <span class="line" key={i}>
                {line.map((t, j) => (
                  <span key={j} class={t.content.trimStart().startsWith('#') ? 'chk-comment' : undefined} style={{ '--hl-light': t.light, '--hl-dark': t.dark }}>{t.content}</span>
                ))}
                {'\n'}
              </span>
            ))
            : text}
        </code>
      </pre>
    </section>
  );
}
