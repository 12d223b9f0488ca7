import type { Catalog, Request } from './api.js';
import { Badge, Status } from './bits.js';
import { hrefWith, navigate, type Params } from './route.js';
import { useApi } from './use-api.js';
import { useLiveVersion } from './live.js';

export function CatalogView({ params, run }: { params: Params; run: Request }) {
  const version = useLiveVersion();
  const catalog = useApi<Catalog>('catalog', { ...run }, version);
  const filter = (key: string, value: string) => navigate(hrefWith(params, { [key]: value }, Object.keys(params)), true);
  const data = catalog.data;
  const source = params['source'] ?? '';
  const server = params['server'] ?? '';
  const status = params['status'] ?? '';
  const rows = (data?.tools ?? []).filter(
    (tool) => (!source || tool.source === source) && (!server || tool.server === server) && (!status || tool.status === status),
  );
  const sources = [...new Set((data?.tools ?? []).map((tool) => tool.source))].sort();
  const servers = [...new Set((data?.tools ?? []).flatMap((tool) => (tool.server ? [tool.server] : [])))].sort();
  const denied = (data?.tools ?? []).filter((tool) => tool.status === 'denied').length;
  const fakes = (data?.tools ?? []).filter((tool) => tool.demo).length;
  return (
    <section aria-labelledby="catalog-heading">
      <h2 id="catalog-heading">Every listed tool</h2>
      <Status loading={catalog.loading && !data} error={catalog.error} />
      {data && (
        <>
          <p>
            {data.tools.length} tools listed, {data.tools.length - denied} let through by policy, {denied} denied. Exposure mode for this run: <code>{data.mode}</code>.
          </p>
          {fakes > 0 && (
            <p class="note">
              {fakes} of them are <Badge kind="fake">fake</Badge> tools of the demo catalog: calling one does nothing (it answers a test marker and says so).
            </p>
          )}
          {data.problems.length > 0 && (
            <section aria-labelledby="problems-heading" class="problems">
              <h3 id="problems-heading">Source problems</h3>
              <ul>
                {data.problems.map((problem, i) => (
                  <li key={i}>
                    <Badge kind={problem.kind}>{problem.kind}</Badge> <strong>{problem.source}</strong> <code>{problem.code}</code>: {problem.message}
                    {problem.fix ? (
                      <>
                        {' '}
                        Fix: <code>{problem.fix}</code>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <form class="filters" aria-label="Filter tools" onSubmit={(event) => event.preventDefault()}>
            <label>
              Source
              <select value={source} onChange={(event) => filter('source', event.currentTarget.value)}>
                <option value="">all</option>
                {sources.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Server
              <select value={server} onChange={(event) => filter('server', event.currentTarget.value)}>
                <option value="">all</option>
                {servers.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Status
              <select value={status} onChange={(event) => filter('status', event.currentTarget.value)}>
                <option value="">all</option>
                <option value="allowed">allowed</option>
                <option value="denied">denied</option>
              </select>
            </label>
            <span role="status">{rows.length} shown</span>
          </form>
          <table>
            <caption class="visually-hidden">Tools of this run</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Source</th>
                <th scope="col">Server</th>
                <th scope="col">Owner</th>
                <th scope="col">Catalog mode</th>
                <th scope="col">Policy</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, 500).map((tool) => (
                <tr key={tool.id} class={tool.status}>
                  <th scope="row">
                    <a href={hrefWith(params, { view: 'tool', tool: tool.id })}>{tool.name}</a>
                    {tool.demo ? <Badge kind="fake">fake</Badge> : null}
                  </th>
                  <td>{tool.source}</td>
                  <td>{tool.server ?? '—'}</td>
                  <td>{tool.owner}</td>
                  <td>{tool.catalogMode}</td>
                  <td>
                    {tool.status === 'allowed' ? (
                      <Badge kind="allowed">allowed</Badge>
                    ) : (
                      <>
                        <Badge kind="denied">denied</Badge>
                        {tool.deniedBy ? <span class="muted"> at {tool.deniedBy.step}</span> : null}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length > 500 && <p class="muted">First 500 of {rows.length} shown; filter to narrow.</p>}
        </>
      )}
    </section>
  );
}
