/**
 * `hitless check FILE --format patch [--out-dir DIR]`: the fixes as a kustomization over FILE
 * (src/check/fix/kustomize-patch.ts). Printed as one text (each file after a `# File:` line), or written into DIR,
 * which must hold FILE or a folder above it: kustomize reads no file outside the kustomization's folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { kustomizePatch, unbuildable } from '../check/fix/kustomize-patch.ts';
import { readManifest, type Manifest } from '../check/read/read-manifest.ts';
import { joinFiles } from '../emit/files.ts';
import { UsageError } from './args.ts';
import { writeOutput } from './streams.ts';

export function writePatch(file: string, outDir: string | undefined, manifest: Manifest, fixedText: string): void {
  const dir = outDir ?? '.';
  const resource = relative(resolve(dir), resolve(file));
  if (resource.startsWith('..') || isAbsolute(resource))
    throw new UsageError(
      `${outDir === undefined ? 'the current folder' : `--out-dir ${outDir}`} does not hold ${file}: kustomize reads no file outside the kustomization's folder, so write the patch into ${file}'s folder or one above it (--out-dir)`,
    );
  const fixed = readManifest(fixedText);
  if (!fixed.ok) throw new Error(`the fixed manifest does not read: ${fixed.problem.message}`);
  const files = kustomizePatch(manifest, fixed.manifest, [resource.split('\\').join('/')]);
  if (!files) {
    writeOutput('stderr', `hitless check: no fix to write for ${file}: the patch would change nothing\n`);
    return;
  }
  const problem = unbuildable(manifest, file);
  if (problem) writeOutput('stderr', `hitless check: ${problem}\n`);
  if (outDir === undefined) {
    writeOutput('stdout', joinFiles(files));
    return;
  }
  try {
    mkdirSync(outDir, { recursive: true });
    for (const f of files) {
      writeFileSync(join(outDir, f.name), f.text);
      writeOutput('stdout', `${join(outDir, f.name)}\n`);
    }
  } catch (error) {
    throw new UsageError(`--out-dir ${outDir} cannot be written (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}
