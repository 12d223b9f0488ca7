import { useEffect, useRef } from 'preact/hooks';
import type { Meta } from './api.js';
import { CatalogView } from './catalog.js';
import { ExposureView } from './exposure.js';
import { LiveView } from './live.js';
import { hrefWith, navigate, onLinkClick, useParams, viewOf, VIEWS, type Params } from './route.js';
import { SearchView } from './search.js';
import { SessionsView } from './sessions.js';
import { ToolPage } from './tool.js';
import { useApi } from './use-api.js';
import { Status } from './bits.js';

export function App() {
  const params = useParams();
  const meta = useApi<Meta>('meta', {});
  const view = viewOf(params);
  const heading = useRef<HTMLHeadingElement>(null);
  // The first visit takes the run the command line selected (--agent/--provider/--model).
  useEffect(() => {
    const defaults = meta.data?.defaults;
    if (!defaults || params['agent'] || params['provider'] || params['model']) return;
    if (defaults.agentId || defaults.provider || defaults.model) {
      navigate(hrefWith(params, { agent: defaults.agentId, provider: defaults.provider, model: defaults.model }, Object.keys(params)), true);
    }
  }, [meta.data]);
  // Moving to another view puts focus on its heading, so keyboard and screen reader users land on the new content.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else heading.current?.focus();
  }, [view, params['tool'], params['session']]);
  const run = { agent: params['agent'], provider: params['provider'], model: params['model'] };
  return (
    <div onClick={onLinkClick as never}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <p class="brand">Tool Search inspect</p>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((item) => (
              <li key={item.view}>
                <a href={hrefWith(params, { view: item.view })} aria-current={item.view === view || (view === 'tool' && item.view === 'catalog') ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <RunPicker meta={meta.data} params={params} />
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {view === 'tool' ? 'Tool' : VIEWS.find((item) => item.view === view)?.label}
        </h1>
        {meta.error ? <Status error={meta.error} /> : null}
        {meta.data?.demoCatalog ? (
          <p class="note">
            The built-in demo catalog is the only source: nothing else is configured. Its tools are fakes that do nothing. For the real tools run{' '}
            <code>tool-search config set plugins.core '{'{}'}'</code>, or add MCP servers or plugin modules to <code>tool-search.json</code>.
          </p>
        ) : null}
        {view === 'catalog' && <CatalogView params={params} run={run} />}
        {view === 'tool' && <ToolPage params={params} run={run} />}
        {view === 'search' && <SearchView params={params} run={run} />}
        {view === 'exposure' && <ExposureView run={run} />}
        {view === 'sessions' && <SessionsView params={params} />}
        {view === 'live' && <LiveView />}
      </main>
    </div>
  );
}

/** Agent, provider and model of the run the page looks at; changing one reloads the view for that run. */
function RunPicker({ meta, params }: { meta: Meta | undefined; params: Params }) {
  const set = (key: string, value: string) => navigate(hrefWith(params, { [key]: value }, Object.keys(params)));
  return (
    <form class="run" aria-label="Run" onSubmit={(event) => event.preventDefault()}>
      <label>
        Agent
        <select value={params['agent'] ?? ''} onChange={(event) => set('agent', event.currentTarget.value)}>
          <option value="">(default)</option>
          {(meta?.agents ?? []).map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
      </label>
      <label>
        Provider
        <input list="providers" value={params['provider'] ?? ''} onChange={(event) => set('provider', event.currentTarget.value.trim())} size={10} />
      </label>
      <datalist id="providers">
        {(meta?.providers ?? []).map((provider) => (
          <option key={provider} value={provider} />
        ))}
      </datalist>
      <label>
        Model
        <input value={params['model'] ?? ''} onChange={(event) => set('model', event.currentTarget.value.trim())} size={12} />
      </label>
    </form>
  );
}
