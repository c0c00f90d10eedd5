/** The manifest: plain text first, highlighted once shiki has loaded, with Copy and Download. */
import { useEffect, useState } from 'preact/hooks';
import type { HighlightToken } from './highlight.ts';

interface Props {
  manifest: string;
  fileName: string;
  /** True while the emitter is still loading after a change: the text shown is the previous manifest. */
  pending?: boolean;
}

type CopyState = 'idle' | 'copied' | 'failed';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The manifest view. The `<pre data-testid="manifest">` text is exactly what Copy puts on the clipboard. */
export function ManifestOutput({ manifest, fileName, pending = false }: Props) {
  const [tokens, setTokens] = useState<{ code: string; lines: HighlightToken[][] } | null>(null);
  const [copyState, setCopyState] = useState<CopyState>('idle');

  useEffect(() => {
    let cancelled = false;
    const run = () => import('./highlight.ts')
      .then((m) => m.highlightYaml(manifest.replace(/\n$/, '')))
      .then((lines) => { if (!cancelled) setTokens({ code: manifest, lines }); })
      .catch(() => { /* plain text stays: highlighting is an enhancement */ });
    const handle = setTimeout(run, 0);
    return () => { cancelled = true; clearTimeout(handle); };
  }, [manifest]);

  useEffect(() => {
    if (copyState === 'idle') return;
    const handle = setTimeout(() => setCopyState('idle'), 2500);
    return () => clearTimeout(handle);
  }, [copyState]);

  const onCopy = async () => setCopyState((await copyText(manifest)) ? 'copied' : 'failed');
  const onDownload = () => {
    const url = URL.createObjectURL(new Blob([manifest], { type: 'application/yaml' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const highlighted = tokens && tokens.code === manifest ? tokens.lines : null;
  return (
    <div class="gen-output">
      <div class="gen-output-bar">
        <h2 id="gen-manifest-heading">Manifest</h2>
        <div class="gen-actions">
          <button type="button" onClick={onCopy} data-testid="copy">Copy</button>
          <button type="button" onClick={onDownload} data-testid="download">Download {fileName}</button>
          <span role="status" class="gen-copy-status">
            {copyState === 'copied' ? 'Copied to the clipboard.' : copyState === 'failed' ? 'Copy failed: select the text and copy it.' : ''}
          </span>
        </div>
      </div>
      <pre class={`gen-manifest${highlighted ? ' is-highlighted' : ''}`} data-testid="manifest" tabIndex={0}
        aria-labelledby="gen-manifest-heading" aria-busy={pending ? 'true' : undefined} data-pending={pending ? 'true' : 'false'}>
        <code>
          {highlighted
            ? highlighted.map((line, i) => (
              <span class="line" key={i}>
                {line.map((t, j) => <span key={j} style={{ '--hl-light': t.light, '--hl-dark': t.dark }}>{t.content}</span>)}
                {'\n'}
              </span>
            ))
            : manifest}
        </code>
      </pre>
    </div>
  );
}
