import { useEffect, useState } from 'preact/hooks';
import type { Live } from './api.js';
import { Badge, Status } from './bits.js';
import { useApi } from './use-api.js';

/** Bumps when a server's tool list changes (server-sent events), so views that show tools reload. */
export function useLiveVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const events = new EventSource('./api/events');
    const take = (event: Event) => setVersion(Number((event as MessageEvent<string>).data) || 0);
    // `hello` carries the count at (re)connect: a change made before the stream opened still reloads the views.
    events.addEventListener('hello', take);
    events.addEventListener('tools-changed', take);
    return () => events.close();
  }, []);
  return version;
}

export function LiveView() {
  const version = useLiveVersion();
  const loaded = useApi<Live>('live', {}, version);
  const data = loaded.data;
  return (
    <section aria-labelledby="live-heading">
      <h2 id="live-heading">MCP servers</h2>
      <Status loading={loaded.loading && !data} error={loaded.error} />
      {data && data.servers.length === 0 && <p>No MCP server is configured.</p>}
      {data && data.servers.length > 0 && (
        <table>
          <caption>
            Server state now; refreshed when a server's tool list changes ({data.version} changes seen)
          </caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">State</th>
              <th scope="col">Transport</th>
              <th scope="col">Protocol</th>
              <th scope="col">Tools</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {data.servers.map((server) => (
              <tr key={server.name}>
                <th scope="row">{server.name}</th>
                <td>
                  <Badge kind={server.state}>{server.state}</Badge>
                </td>
                <td>{server.transport ?? '—'}</td>
                <td>{server.protocolVersion ?? '—'}</td>
                <td>{server.toolCount ?? '—'}</td>
                <td>{server.error ? `${server.error.code}: ${server.error.message}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
