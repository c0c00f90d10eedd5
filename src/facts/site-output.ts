/** The output forms' facts as the site sees them: content/outputs/*.yaml, bundled by Vite at build time. */
import { CHART_FACTS_FILE, LWS_FACTS_FILE, outputFactsFromFiles } from './profile-files.ts';
import type { OutputFacts } from './profiles.ts';

const texts = import.meta.glob(['/content/outputs/gie-inferencepool.yaml', '/content/outputs/lws.yaml'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const file = (name: string) => ({ path: `content/${name}`, text: texts[`/content/${name}`] });

/** The chart and LeaderWorkerSet facts, validated once per build. */
export const outputFacts: OutputFacts = outputFactsFromFiles(file(CHART_FACTS_FILE), file(LWS_FACTS_FILE));
