// The client command the conformance runner starts (it appends the server URL): it hands the
// scenario to the test process, where plugin-mcp is the client under test, and exits with its verdict.
// node:http, not fetch: loading fetch (undici) costs this short-lived process ~0.2 s of CPU, once per scenario.
import { request } from 'node:http';

const serverUrl = process.argv[process.argv.length - 1];
const body = JSON.stringify({
  serverUrl,
  scenario: process.env.MCP_CONFORMANCE_SCENARIO,
  context: process.env.MCP_CONFORMANCE_CONTEXT,
});
const verdict = await new Promise((resolve, reject) => {
  const post = request(
    process.env.PLUGIN_MCP_CONFORMANCE_RELAY,
    { method: 'POST', headers: { 'content-type': 'application/json' } },
    (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve(JSON.parse(text)));
      response.on('error', reject);
    },
  );
  post.on('error', reject);
  post.end(body);
});
if (!verdict.ok) {
  console.error(verdict.error);
  process.exit(1);
}
console.log(verdict.summary);
