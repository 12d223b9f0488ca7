// The client command the conformance runner starts (it appends the server URL): it hands the
// scenario to the test process, where plugin-mcp is the client under test, and exits with its verdict.
const serverUrl = process.argv[process.argv.length - 1];
const response = await fetch(process.env.PLUGIN_MCP_CONFORMANCE_RELAY, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    serverUrl,
    scenario: process.env.MCP_CONFORMANCE_SCENARIO,
    context: process.env.MCP_CONFORMANCE_CONTEXT,
  }),
});
const verdict = await response.json();
if (!verdict.ok) {
  console.error(verdict.error);
  process.exit(1);
}
console.log(verdict.summary);
