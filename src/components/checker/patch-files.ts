/**
 * The checker's fixes as a kustomization (src/check/fix/kustomize-patch.ts), for the page's zip: the manifest as
 * checked (`manifest.yaml`, the kustomization's resource), the kustomization and its patches. Loaded on the click.
 */
import { kustomizePatch, type PatchFile } from '../../check/fix/kustomize-patch.ts';
import { readManifest } from '../../check/read/read-manifest.ts';

export function patchFiles(original: string, fixed: string): PatchFile[] | undefined {
  const before = readManifest(original);
  const after = readManifest(fixed);
  if (!before.ok || !after.ok) return undefined;
  const files = kustomizePatch(before.manifest, after.manifest, ['manifest.yaml']);
  return files && [{ name: 'manifest.yaml', purpose: 'Your manifest, as checked.', text: original }, ...files];
}
