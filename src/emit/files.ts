/**
 * What an output form emits: one or more files, each a YAML text with a purpose, and all of them as one text
 * (each file after a `# File:` line, separated by `---`) for a terminal or the generator page.
 */
import type { Document } from 'yaml';
import type { OutputForm } from '../model/fields.ts';
import { TO_STRING } from './options.ts';

/** One file of an output form. */
export interface OutputFile {
  /** File name, as the kustomization or the commands in the comments refer to it. */
  name: string;
  /** One sentence: what the file is for. */
  purpose: string;
  text: string;
}

/** An output form's files, and all of them as one text. */
export interface EmittedOutput {
  form: OutputForm;
  files: OutputFile[];
  text: string;
}

/** A problem with the inputs for one output form, named by the flag to change. */
export class OutputError extends Error {
  readonly flag: string;
  constructor(flag: string, message: string) {
    super(message);
    this.name = 'OutputError';
    this.flag = flag;
  }
}

/** One document as YAML text, written as in the manifest. */
export function documentText(doc: Document): string {
  return doc.toString(TO_STRING);
}

/** A file from annotated documents, written as in the manifest and separated by `---`. */
export function fileOf(name: string, purpose: string, docs: Document[]): OutputFile {
  return { name, purpose, text: docs.map(documentText).join('---\n') };
}

/** Every file as one text: a `# File: name: purpose` line before each, `---` between them. */
export function joinFiles(files: readonly OutputFile[]): string {
  return files.map((f) => `# File: ${f.name}: ${f.purpose}\n${f.text}`).join('---\n');
}
