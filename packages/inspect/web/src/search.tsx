import { useEffect, useState } from 'preact/hooks';
import type { Request, Search } from './api.js';
import { Badge, Status } from './bits.js';
import { hrefWith, navigate, type Params } from './route.js';
import { useApi } from './use-api.js';

export function SearchView({ params, run }: { params: Params; run: Request }) {
  const query = params['q'] ?? '';
  const [text, setText] = useState(query);
  useEffect(() => setText(query), [query]);
  const loaded = useApi<Search>(query.trim() ? 'search' : undefined, { ...run, q: query, limit: params['limit'] });
  const data = query.trim() ? loaded.data : undefined;
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading" class="visually-hidden">
        Search playground
      </h2>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(hrefWith(params, { view: 'search', q: text }));
        }}
      >
        <label for="q">Find a tool</label>
        <input id="q" type="search" name="q" value={text} onInput={(event) => setText(event.currentTarget.value)} placeholder="create a GitHub issue" size={40} />
        <button type="submit">Search</button>
      </form>
      {query.trim() ? <Status loading={loaded.loading && !data} error={loaded.error} /> : <p class="muted">Type what the tool should do; the URL keeps the query, so a search can be shared.</p>}
      {data && (
        <>
          <p role="status">
            {data.result.hits.length} hits for “{data.result.query}”{data.result.weak ? ', all weak' : ''} · ranker {data.ranker.id} v{data.ranker.version}
            {data.result.truncated ? ' · more were cut by the limit' : ''}
          </p>
          {data.misses.length > 0 && (
            <ul class="misses" aria-label="Why nothing matched well">
              {data.misses.map((miss, i) => (
                <li key={i}>{miss}</li>
              ))}
            </ul>
          )}
          <ol class="hits" aria-label="Results in rank order">
            {data.result.hits.map((hit, i) => (
              <li key={hit.id} class={hit.weak ? 'weak' : undefined}>
                <a class="hit-name" href={hrefWith(params, { view: 'tool', tool: hit.id })}>
                  {hit.name}
                </a>{' '}
                <code class="muted">{hit.id}</code> {hit.weak ? <Badge kind="weak">weak match</Badge> : null}
                {data.demo?.[i] ? <Badge kind="fake">fake</Badge> : null}
                <p>{hit.summary}</p>
                <p class="signature">
                  <code>{hit.input}</code>
                </p>
                <p class="parts">
                  Matched:{' '}
                  {(data.parts[i] ?? []).length === 0
                    ? 'no query word in its text (synonyms, server or fallback ranking)'
                    : (data.parts[i] ?? []).map((part) => (
                        <span class="part" key={part.field}>
                          {part.field} ×{part.weight}: {part.words.join(', ')}
                        </span>
                      ))}
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
