/** The manifest with every fix applied: highlighted once shiki has loaded, with Copy, Download and "check it". */
import { useState } from 'preact/hooks';
import { diffLines } from '../../check/fix/diff.ts';
import { downloadZip } from '../generator/ManifestOutput.tsx';
import { CopyLabel, CopyStatus, downloadText, useCopy, useHighlighted, YamlCode } from '../generator/yaml-view.tsx';

interface Props {
  text: string;
  /** The manifest as checked, for the diff view. */
  original: string;
  edits: number;
  /** Edits not written because their path goes through a YAML alias. */
  skipped: number;
  /** Put the fixed manifest in the text area, to check it again. */
  onCheckAgain: () => void;
}

/**
 * Above this many characters the fixed manifest stays plain text: highlighting runs on the page's main thread and
 * takes seconds for a manifest of hundreds of objects, which would freeze the page the worker keeps responsive.
 */
const HIGHLIGHT_MAX_CHARS = 32 * 1024;

/** The fixed manifest. The `<pre data-testid="fixed-manifest">` text is exactly what Copy puts on the clipboard. */
export function FixedManifest({ text, original, edits, skipped, onCheckAgain }: Props) {
  const highlighted = useHighlighted(text.length <= HIGHLIGHT_MAX_CHARS ? text : '', 150);
  const [showDiff, setShowDiff] = useState(false);
  const { onCopy, status, copied } = useCopy(text);
  const onDownload = () => downloadText(text, 'fixed-manifest.yaml');
  // The fixes as a kustomization over the manifest as checked (hitless check --format patch), zipped on the click.
  const onPatch = async () => {
    const { patchFiles } = await import('./patch-files.ts');
    const files = patchFiles(original, text);
    if (files) await downloadZip(files, 'hitless-patch.zip');
  };
  return (
    <section class="chk-fixed" aria-labelledby="chk-fixed-heading">
      <div class="gen-output-bar">
        <h2 id="chk-fixed-heading">Fixed manifest</h2>
        <div class="gen-actions">
          <button type="button" onClick={onCopy} data-testid="copy-fixed">
            <CopyLabel copied={copied} />
          </button>
          <button type="button" onClick={onDownload}>
            Download
          </button>
          <button type="button" onClick={() => void onPatch()} data-testid="download-patch">
            Kustomize patch (.zip)
          </button>
          <button type="button" onClick={onCheckAgain} data-testid="check-fixed">
            Check the fixed manifest
          </button>
          <button type="button" aria-pressed={showDiff} onClick={() => setShowDiff(!showDiff)} data-testid="show-diff">
            {showDiff ? 'Show the manifest' : 'Show changes'}
          </button>
          <CopyStatus status={status} copied={copied} />
        </div>
      </div>
      <p class="chk-hint">
        {edits} change{edits === 1 ? '' : 's'} applied; your comments and key order are kept, and each value the checker
        wrote says how it was derived.
        {skipped > 0
          ? ` ${skipped} change${skipped === 1 ? '' : 's'} could not be written because the path goes through a YAML alias (*name); make ${skipped === 1 ? 'it' : 'them'} by hand.`
          : ''}
      </p>
      {showDiff ? <DiffView before={original} after={text} /> : null}
      <pre
        hidden={showDiff}
        class={`gen-manifest${highlighted ? ' is-highlighted' : ''}`}
        data-testid="fixed-manifest"
        tabIndex={0}
        aria-labelledby="chk-fixed-heading"
      >
        {text.length <= HIGHLIGHT_MAX_CHARS ? (
          <YamlCode text={text} lines={highlighted} />
        ) : (
          <PlainInChunks text={text} />
        )}
      </pre>
    </section>
  );
}

/** Lines per block of a long plain manifest. */
const CHUNK_LINES = 100;

/**
 * A long manifest as blocks of lines the browser lays out only once they scroll into view (`content-visibility`),
 * so that showing a manifest of thousands of lines is not one long task. The text is the same, block after block.
 */
function PlainInChunks({ text }: { text: string }) {
  const lines = text.split(/(?<=\n)/);
  const chunks: string[] = [];
  for (let i = 0; i < lines.length; i += CHUNK_LINES) chunks.push(lines.slice(i, i + CHUNK_LINES).join(''));
  return (
    <code>
      {chunks.map((chunk, i) => (
        <span key={i} class="chk-chunk">
          {chunk}
        </span>
      ))}
    </code>
  );
}

/** The changed lines with three lines of context around them, as in a unified diff. */
function DiffView({ before, after }: { before: string; after: string }) {
  const lines = diffLines(before, after);
  const near = new Set<number>();
  lines.forEach((l, i) => {
    if (l.kind !== ' ') for (let k = i - 3; k <= i + 3; k++) near.add(k);
  });
  const shown = lines.map((l, i) => [l, i] as const).filter(([, i]) => near.has(i));
  return (
    <pre class="gen-manifest chk-diff" data-testid="fixed-diff" tabIndex={0} aria-label="Changes the fixes make">
      {shown.length === 0
        ? 'No changes.'
        : shown.map(([l, i], n) => (
            <span key={i} class={l.kind === '+' ? 'chk-diff-add' : l.kind === '-' ? 'chk-diff-del' : undefined}>
              {n > 0 && shown[n - 1][1] !== i - 1 ? '\u22ef\n' : ''}
              {`${l.kind} ${l.text}\n`}
            </span>
          ))}
    </pre>
  );
}
