/**
 * Bounds on the work one check may do. Pasted text is untrusted: every limit here turns an input that
 * could exhaust memory or time into a message that says which limit it passed.
 */

/** The largest input read, in bytes of UTF-8. Real manifests are a few KiB. */
export const MAX_INPUT_BYTES = 256 * 1024;

/** The deepest nesting of mappings and sequences accepted. Kubernetes objects stay far below it. */
export const MAX_NESTING_DEPTH = 100;

/**
 * The most nodes a document may have with every alias (*name) expanded. Without aliases a document of the largest
 * input read (256 KiB) has at most about 131,072 nodes (two characters each, `1,` in a flow sequence), and a real
 * manifest a few thousand: aliases may repeat what a document says, never make it larger than one written out could
 * be. An alias bomb (ten aliases of ten aliases … nine deep: 10^9 nodes) passes it at once.
 */
export const MAX_EXPANDED_NODES = 131_072;

/**
 * The most aliases × nodes in a document: `yaml` finds each alias's anchor by walking the document, so that product is
 * its work (4 million node visits take well under a second); 150 aliases in a 2,000-node manifest are 300,000.
 */
export const MAX_ALIAS_WORK = 4_000_000;

/** The most YAML documents read from one input. */
export const MAX_DOCUMENTS = 500;

/** How much one read takes: the page's (and a whole pasted input's) limits by default. */
export interface ReadLimits {
  bytes: number;
  documents: number;
}

/** The limits of one input as the page and a plain check read it. */
export const INPUT_LIMITS: ReadLimits = { bytes: MAX_INPUT_BYTES, documents: MAX_DOCUMENTS };

/**
 * The limits of a group of parts the CLI checks together: each part has already passed INPUT_LIMITS alone, and a
 * group (a pool with every workload it selects) cannot be split, so its size is what the input's is.
 */
export const GROUP_LIMITS: ReadLimits = { bytes: Number.POSITIVE_INFINITY, documents: Number.POSITIVE_INFINITY };

/** Write a byte count for messages: 262144 → "256 KiB". */
export function formatKiB(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KiB`;
}
