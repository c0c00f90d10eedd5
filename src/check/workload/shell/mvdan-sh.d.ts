/** The few parts of mvdan-sh (mvdan/sh's syntax package, compiled to JavaScript) the checker uses. */
declare module 'mvdan-sh' {
  export interface Pos {
    Offset(): number;
  }
  export interface ShNode {
    Pos(): Pos;
    End(): Pos;
    [field: string]: unknown;
  }
  interface Syntax {
    NewParser(): { Parse(src: string, name: string): ShNode };
    NodeType(node: unknown): string;
  }
  const sh: { syntax: Syntax };
  export default sh;
}
