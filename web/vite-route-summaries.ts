import ts from 'typescript';
import { type Plugin } from 'vite';

/** What the API document reads and the app does not: each route's summary and its own error codes. */
const leftOut: Record<string, string> = { summary: "''", errors: '[]' };

const routeFiles = /[\\/]libs[\\/]contracts[\\/]src[\\/]routes[\\/][^\\/]+\.ts$/;

/**
 * Leaves the API routes' summaries and error lists out of the app: they are the API document's
 * (the gateway serves it), the app never reads them, and the route registry is in the entry chunk
 * every screen loads. Each `summary: …` and `errors: […]` of the registry's files is found with
 * TypeScript's parser and emptied, so the registry keeps its shape.
 */
export function withoutRouteSummaries(): Plugin {
  return {
    name: 'without-route-summaries',
    enforce: 'pre',
    transform(code, id) {
      if (!routeFiles.test(id)) return null;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const cuts: [number, number, string][] = [];
      const visit = (node: ts.Node) => {
        if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text in leftOut)
          cuts.push([node.initializer.getStart(source), node.initializer.getEnd(), leftOut[node.name.text]]);
        ts.forEachChild(node, visit);
      };
      visit(source);
      let out = code;
      for (const [start, end, empty] of cuts.reverse())
        out = `${out.slice(0, start)}${empty}${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}
