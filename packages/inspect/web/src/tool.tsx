import type { Request, ToolView } from './api.js';
import { Badge, Status } from './bits.js';
import { hrefWith, type Params } from './route.js';
import { useApi } from './use-api.js';

export function ToolPage({ params, run }: { params: Params; run: Request }) {
  const id = params['tool'];
  const loaded = useApi<ToolView>(id ? 'tool' : undefined, { ...run, id });
  if (!id) return <p>No tool chosen: pick one in the <a href={hrefWith(params, { view: 'catalog' })}>catalog</a>.</p>;
  const data = loaded.data;
  return (
    <article aria-labelledby="tool-heading">
      <p>
        <a href={hrefWith(params, { view: 'catalog' })}>← Catalog</a>
      </p>
      <Status loading={loaded.loading && !data} error={loaded.error} />
      {data && (
        <>
          <h2 id="tool-heading">
            {data.tool.name} <Badge kind={data.tool.status}>{data.tool.status}</Badge>
            {data.tool.demo ? <Badge kind="fake">fake</Badge> : null}
          </h2>
          {data.tool.demo ? <p class="note">A fake of the demo catalog: calling it does nothing (it answers FAKE_TOOL_OK and says it did nothing).</p> : null}
          <dl class="facts">
            <dt>Id</dt>
            <dd>
              <code>{data.tool.id}</code>
            </dd>
            <dt>Source</dt>
            <dd>{data.tool.source}</dd>
            <dt>Owner</dt>
            <dd>{data.tool.owner}</dd>
            <dt>Catalog mode</dt>
            <dd>{data.tool.catalogMode}</dd>
            {data.tool.title ? (
              <>
                <dt>Title</dt>
                <dd>{data.tool.title}</dd>
              </>
            ) : null}
          </dl>
          <p>{data.tool.description}</p>
          <section aria-labelledby="explain-heading">
            <h3 id="explain-heading">Explain: policy steps</h3>
            <p>{data.explain.inCatalog ? 'In the catalog of this run.' : 'Dropped by policy for this run.'}</p>
            {data.explain.steps.length === 0 ? (
              <p class="muted">No policy step recorded.</p>
            ) : (
              <ol class="steps">
                {data.explain.steps.map((step, i) => (
                  <li key={i} class={step.kept ? 'kept' : 'dropped'}>
                    <strong>{step.step}</strong>: {step.kept ? 'kept' : 'dropped'}
                    {step.rule ? <code class="rule">{step.rule}</code> : null}
                    {step.plugin ? <span class="muted"> [{step.plugin}]</span> : null}
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="guidance-heading">
            <h3 id="guidance-heading">Guidance</h3>
            {data.guidance ? <pre class="text">{data.guidance}</pre> : <p class="muted">No guidance for this tool{data.tool.status === 'denied' ? ' (guidance reaches the model only for tools it can see)' : ''}.</p>}
          </section>
          <section aria-labelledby="schema-heading">
            <h3 id="schema-heading">Input schema</h3>
            <pre tabIndex={0} aria-label="Input schema JSON">{JSON.stringify(data.tool.inputSchema, null, 2)}</pre>
            {data.tool.outputSchema ? (
              <>
                <h3>Output schema</h3>
                <pre tabIndex={0} aria-label="Output schema JSON">{JSON.stringify(data.tool.outputSchema, null, 2)}</pre>
              </>
            ) : null}
          </section>
        </>
      )}
    </article>
  );
}
