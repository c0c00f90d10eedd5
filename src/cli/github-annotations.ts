/**
 * GitHub Actions workflow commands for findings: `::error file=F,line=L,title=T::message`. Properties escape
 * `%`, CR, LF, `:` and `,`; the message escapes `%`, CR and LF, as the Actions runner's toolkit does.
 */

/** A finding as one annotation. `line` is 1-based; annotations without a file are about the run as a whole. */
export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  file?: string;
  line?: number;
  title: string;
  message: string;
}

function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** One workflow command line, without the trailing newline. */
export function formatAnnotation(a: Annotation): string {
  const props: string[] = [];
  if (a.file !== undefined) props.push(`file=${escapeProperty(a.file)}`);
  if (a.line !== undefined) props.push(`line=${a.line}`);
  props.push(`title=${escapeProperty(a.title)}`);
  return `::${a.level} ${props.join(',')}::${escapeData(a.message)}`;
}

/** The annotation level for a finding's severity: errors fail the step's review, info becomes a notice. */
export function annotationLevel(severity: 'error' | 'warning' | 'info'): Annotation['level'] {
  return severity === 'info' ? 'notice' : severity;
}
