/** The output forms' facts as the site sees them: content/outputs/*.yaml, bundled by Vite at build time. */
import { outputFactsFromFiles } from './profile-files.ts';
import type { OutputFacts } from './profiles.ts';

const chartText = import.meta.glob('/content/outputs/gie-inferencepool.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const lwsText = import.meta.glob('/content/outputs/lws.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const only = (texts: Record<string, string>) => {
  const [path, text] = Object.entries(texts)[0];
  return { path: path.slice(1), text };
};

/** The chart and LeaderWorkerSet facts, validated once per build. */
export const outputFacts: OutputFacts = outputFactsFromFiles(only(chartText), only(lwsText));
