/** A text's 32-bit FNV-1a hash (over its UTF-16 units): the checker's repeat keys (check-findings.ts). */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
