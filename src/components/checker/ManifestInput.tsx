/** The manifest text area, with a file chooser and drop target. Files are read here, in the browser. */
import { useRef, useState } from 'preact/hooks';
import { formatKiB, MAX_INPUT_BYTES } from '../../check/read/limits.ts';

interface Props {
  text: string;
  onText: (text: string) => void;
  textareaRef: { current: HTMLTextAreaElement | null };
  onLoadExample: () => void;
}

/** Read a dropped or chosen file as UTF-8, refusing files over the limit before reading them. */
async function readFile(file: File): Promise<{ text: string } | { problem: string }> {
  if (file.size > MAX_INPUT_BYTES) {
    return {
      problem: `${file.name} is ${formatKiB(file.size)}; the checker reads at most ${formatKiB(MAX_INPUT_BYTES)}.`,
    };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer()) };
  } catch {
    return { problem: `${file.name} is not UTF-8 text; it looks like binary data, not a YAML manifest.` };
  }
}

/** The labelled input: a text area that also takes a dropped file, and a file chooser. */
export function ManifestInput({ text, onText, textareaRef, onLoadExample }: Props) {
  const [fileProblem, setFileProblem] = useState('');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const load = async (file: File | undefined) => {
    if (!file) return;
    const read = await readFile(file);
    setFileProblem('problem' in read ? read.problem : '');
    if ('text' in read) onText(read.text);
  };

  return (
    <div class="chk-input">
      <div class="chk-label-row">
        <label for="chk-manifest" class="chk-label">
          Your manifest (YAML: Deployment, StatefulSet or LeaderWorkerSet, InferencePool, gateway policies)
        </label>
        <button type="button" onClick={onLoadExample} data-testid="load-example">
          Load an example
        </button>
      </div>
      <p class="chk-hint" id="chk-manifest-hint">
        Paste it, drop a file on the box, or choose one. It is checked here in your browser and is not sent anywhere.
        The example is GIE v1.5.0&rsquo;s reference vLLM Deployment and an InferencePool.
      </p>
      <textarea
        id="chk-manifest"
        ref={textareaRef}
        data-testid="checker-input"
        class={dragging ? 'is-dragging' : ''}
        aria-describedby="chk-manifest-hint"
        spellcheck={false}
        autoComplete="off"
        wrap="off"
        rows={22}
        value={text}
        placeholder="apiVersion: apps/v1&#10;kind: Deployment&#10;…"
        onInput={(e) => onText((e.currentTarget as HTMLTextAreaElement).value)}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void load(e.dataTransfer?.files[0]);
        }}
      />
      <div class="chk-file">
        <label for="chk-file">Or open a file</label>
        <input
          id="chk-file"
          ref={fileInput}
          type="file"
          accept=".yaml,.yml,.json,text/yaml,application/yaml,text/plain"
          data-testid="checker-file"
          onChange={(e) => {
            void load((e.currentTarget as HTMLInputElement).files?.[0]);
            if (fileInput.current) fileInput.current.value = '';
          }}
        />
      </div>
      {fileProblem ? (
        <p class="chk-problem" role="alert">
          {fileProblem}
        </p>
      ) : null}
    </div>
  );
}

/** Select a 1-based line of a text area and scroll it into view. */
export function selectLineIn(textarea: HTMLTextAreaElement, line: number): void {
  const lines = textarea.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const end = start + (lines[line - 1]?.length ?? 0);
  textarea.focus();
  textarea.setSelectionRange(start, end);
  const lineHeight = textarea.scrollHeight / Math.max(lines.length, 1);
  textarea.scrollTop = Math.max(0, (line - 4) * lineHeight);
}
