/** The manifest: plain text first, highlighted once shiki has loaded, with Copy and Download. */
import { downloadText, useCopy, useHighlighted, YamlCode } from './yaml-view.tsx';

interface Props {
  manifest: string;
  fileName: string;
  /** True while the emitter is still loading after a change: the text shown is the previous manifest. */
  pending?: boolean;
}

/** The manifest view. The `<pre data-testid="manifest">` text is exactly what Copy puts on the clipboard. */
export function ManifestOutput({ manifest, fileName, pending = false }: Props) {
  const highlighted = useHighlighted(manifest);
  const { onCopy, status } = useCopy(manifest);
  const onDownload = () => downloadText(manifest, fileName);

  return (
    <div class="gen-output">
      <div class="gen-output-bar">
        <h2 id="gen-manifest-heading">Manifest</h2>
        <div class="gen-actions">
          <button type="button" onClick={onCopy} data-testid="copy">Copy</button>
          <button type="button" onClick={onDownload} data-testid="download">Download {fileName}</button>
          <span role="status" class="gen-copy-status">{status}</span>
        </div>
      </div>
      <pre class={`gen-manifest${highlighted ? ' is-highlighted' : ''}`} data-testid="manifest" tabIndex={0}
        aria-labelledby="gen-manifest-heading" aria-busy={pending ? 'true' : undefined} data-pending={pending ? 'true' : 'false'}>
        <YamlCode text={manifest} lines={highlighted} />
      </pre>
    </div>
  );
}
