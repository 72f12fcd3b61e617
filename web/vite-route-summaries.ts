import ts from 'typescript';
import { type Plugin } from 'vite';

const routeFiles = /[\\/]libs[\\/]contracts[\\/]src[\\/]routes[\\/][^\\/]+\.ts$/;

/**
 * Leaves the API routes' `summary` texts out of the app: they are the API document's (the gateway
 * serves it), the app never shows them, and the route registry is in the entry chunk every screen
 * loads. Each `summary: …` of the registry's files is read with TypeScript's parser and its text
 * replaced by an empty string, so the registry keeps its shape.
 */
export function withoutRouteSummaries(): Plugin {
  return {
    name: 'without-route-summaries',
    enforce: 'pre',
    transform(code, id) {
      if (!routeFiles.test(id)) return null;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const cuts: [number, number][] = [];
      const visit = (node: ts.Node) => {
        if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'summary')
          cuts.push([node.initializer.getStart(source), node.initializer.getEnd()]);
        ts.forEachChild(node, visit);
      };
      visit(source);
      let out = code;
      for (const [start, end] of cuts.reverse()) out = `${out.slice(0, start)}''${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}
