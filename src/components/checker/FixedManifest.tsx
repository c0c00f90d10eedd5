/** The manifest with every fix applied: highlighted once shiki has loaded, with Copy, Download and "check it". */
import { downloadText, useCopy, useHighlighted, YamlCode } from '../generator/yaml-view.tsx';

interface Props {
  text: string;
  edits: number;
  /** Edits not written because their path goes through a YAML alias. */
  skipped: number;
  /** Put the fixed manifest in the text area, to check it again. */
  onCheckAgain: () => void;
}


/** The fixed manifest. The `<pre data-testid="fixed-manifest">` text is exactly what Copy puts on the clipboard. */
export function FixedManifest({ text, edits, skipped, onCheckAgain }: Props) {
  const highlighted = useHighlighted(text, 150);
  const { onCopy, status } = useCopy(text);
  const onDownload = () => downloadText(text, 'fixed-manifest.yaml');
  return (
    <section class="chk-fixed" aria-labelledby="chk-fixed-heading">
      <div class="gen-output-bar">
        <h2 id="chk-fixed-heading">Fixed manifest</h2>
        <div class="gen-actions">
          <button type="button" onClick={onCopy} data-testid="copy-fixed">Copy</button>
          <button type="button" onClick={onDownload}>Download</button>
          <button type="button" onClick={onCheckAgain} data-testid="check-fixed">Check the fixed manifest</button>
          <span role="status" class="gen-copy-status">{status}</span>
        </div>
      </div>
      <p class="chk-hint">
        {edits} change{edits === 1 ? '' : 's'} applied; your comments and key order are kept, and each value the checker wrote says how it was derived.
        {skipped > 0 ? ` ${skipped} change${skipped === 1 ? '' : 's'} could not be written because the path goes through a YAML alias (*name); make ${skipped === 1 ? 'it' : 'them'} by hand.` : ''}
      </p>
      <pre class={`gen-manifest${highlighted ? ' is-highlighted' : ''}`} data-testid="fixed-manifest" tabIndex={0} aria-labelledby="chk-fixed-heading">
        <YamlCode text={text} lines={highlighted} />
      </pre>
    </section>
  );
}
