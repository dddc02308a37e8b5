// Parses PowerShell scripts with tree-sitter's PowerShell grammar (web-tree-sitter, WebAssembly: no native build)
// and prints every syntax error or missing token as FILE:LINE:COLUMN: what. Exit 0 when every file parses.
// usage: node powershell-parse.mjs SCRIPT...   (run where node_modules holds web-tree-sitter and tree-sitter-powershell)
import { Parser, Language } from 'web-tree-sitter';
import fs from 'node:fs';

await Parser.init();
const language = await Language.load('node_modules/tree-sitter-powershell/tree-sitter-powershell.wasm');
const parser = new Parser();
parser.setLanguage(language);

let problems = 0;
for (const file of process.argv.slice(2)) {
  const tree = parser.parse(fs.readFileSync(file, 'utf8'));
  const visit = (node) => {
    if (node.isError || node.isMissing) {
      problems++;
      const where = `${file}:${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
      console.log(`${where}: ${node.isMissing ? 'missing ' + node.type : 'syntax error'} near ${JSON.stringify(node.text.slice(0, 60))}`);
    } else if (node.hasError) {
      node.children.forEach(visit);
    }
  };
  visit(tree.rootNode);
  console.log(`${file}: ${tree.rootNode.hasError ? 'does not parse' : 'parses'}`);
}
process.exit(problems === 0 ? 0 : 1);
