import type { Entry, Session, SessionItem } from './api.js';
import { Badge, formatBytes, Status } from './bits.js';
import { hrefWith, type Params } from './route.js';
import { useApi } from './use-api.js';

export function SessionsView({ params }: { params: Params }) {
  const list = useApi<{ sessions: SessionItem[] }>('sessions', {});
  const id = params['session'];
  return (
    <>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Session logs</h2>
        <Status loading={list.loading && !list.data} error={list.error} />
        {list.data && list.data.sessions.length === 0 && <p>No session logs yet: set gateway.sessions.dir or session.logDir and run a session.</p>}
        {list.data && list.data.sessions.length > 0 && (
          <table>
            <caption class="visually-hidden">Sessions, most recent first</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">From</th>
                <th scope="col">Updated</th>
                <th scope="col">Searches</th>
                <th scope="col">Zero-hit</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {list.data.sessions.map((item) => (
                <tr key={`${item.origin}:${item.id}`} aria-current={item.id === id ? 'true' : undefined}>
                  <th scope="row">
                    <a href={hrefWith(params, { view: 'sessions', session: item.id, origin: item.origin })}>{item.id}</a>
                  </th>
                  <td>{item.origin === 'log' ? 'log file' : 'session store'}</td>
                  <td>{item.updated.replace('T', ' ').slice(0, 19)}</td>
                  <td>{item.searches ?? '—'}</td>
                  <td>{item.zeroHit ? <Badge kind="zero-hit">{item.zeroHit}</Badge> : (item.zeroHit ?? '—')}</td>
                  <td>{item.calls ?? item.status ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {id && <SessionTimeline id={id} origin={params['origin'] === 'store' ? 'store' : 'log'} />}
    </>
  );
}

function SessionTimeline({ id, origin }: { id: string; origin: 'log' | 'store' }) {
  const loaded = useApi<Session>('session', { id, origin });
  const data = loaded.data;
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline of {id}</h2>
      <Status loading={loaded.loading && !data} error={loaded.error} />
      {data?.record && (
        <p>
          {data.record.kind} session of agent {data.record.agentId}: {data.record.status}, {data.record.turns} turns{data.record.model ? `, model ${data.record.model}` : ''}
          {data.record.lastError ? ` — ${data.record.lastError}` : ''}
        </p>
      )}
      {data?.transcript && (
        <ol class="timeline" aria-label="Transcript">
          {data.transcript.map((line, i) => (
            <li key={i} class={`t-${line.role}`}>
              <strong>{line.role}</strong> {line.tool ? `${line.tool.name}: ${line.tool.status}` : (line.content ?? '')}
              {line.toolCalls?.length ? <span class="muted"> calls {line.toolCalls.join(', ')}</span> : null}
            </li>
          ))}
        </ol>
      )}
      {data && data.entries.length > 0 && (
        <ol class="timeline" aria-label="Events in order">
          {data.entries.map((entry, i) => (
            <EntryItem key={i} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}

function EntryItem({ entry }: { entry: Entry }) {
  const time = <time dateTime={entry.ts}>{entry.ts.slice(11, 23)}</time>;
  switch (entry.type) {
    case 'run-start': {
      const catalog = entry['catalog'] as { total: number } | undefined;
      return (
        <li class="turn">
          {time} <strong>Turn</strong> run {entry.runId.slice(0, 8)}
          {entry['agentId'] ? ` · agent ${String(entry['agentId'])}` : ''}
          {entry['model'] ? ` · model ${String(entry['model'])}` : ''} · catalog {catalog?.total ?? '?'} tools
        </li>
      );
    }
    case 'search': {
      const results = (entry['results'] as { query: string; hitCount: number; zeroHit: boolean; weak: boolean }[] | undefined) ??
        (entry['queries'] as string[]).map((query) => ({ query, hitCount: (entry['hits'] as string[]).length, zeroHit: (entry['hits'] as string[]).length === 0, weak: false }));
      return (
        <li class={`search${results.some((r) => r.zeroHit) ? ' zero-hit' : ''}`}>
          {time} <strong>Search</strong> ({String(entry['origin'])})
          <ul>
            {results.map((r, i) => (
              <li key={i}>
                “{r.query}” → {r.zeroHit ? <Badge kind="zero-hit">0 hits</Badge> : `${r.hitCount} hits`}
                {r.weak && !r.zeroHit ? <Badge kind="weak">weak</Badge> : null}
              </li>
            ))}
          </ul>
        </li>
      );
    }
    case 'describe':
      return (
        <li class="describe">
          {time} <strong>Describe</strong> {String(entry['toolId'] ?? entry['requested'])}
          {entry['toolId'] === null ? <Badge kind="denied">unknown</Badge> : null}
        </li>
      );
    case 'tool-call': {
      const rank = entry['searchRank'];
      return (
        <li class={`call ${String(entry['status'])}`}>
          {time} <strong>Call</strong> <span class="call-name">{String(entry['name'])}</span> <code class="muted">{String(entry['toolId'])}</code>{' '}
          <Badge kind={String(entry['status'])}>{String(entry['status'])}</Badge> {Number(entry['durationMs']).toFixed(0)} ms
          {entry['blockedBy'] ? ` · blocked by ${String(entry['blockedBy'])}` : ''}
          {entry['errorCode'] ? ` · ${String(entry['errorCode'])}` : ''}
          {rank !== undefined ? (
            <span class={`rank${typeof rank === 'number' ? '' : ' missed'}`}> · {typeof rank === 'number' ? `rank ${rank} in the latest search` : String(rank)}</span>
          ) : null}
        </li>
      );
    }
    case 'provider-request': {
      const bytes = entry['bytes'] as { request: number };
      const tokens = entry['tokens'] as { request: number } | null;
      return (
        <li class="request">
          {time} <strong>Provider request</strong> ({String(entry['mode'])}) · {(entry['tools'] as string[]).length} tools · {formatBytes(bytes.request)}
          {tokens ? ` · ${tokens.request} tokens` : ''}
        </li>
      );
    }
    case 'diagnostic':
      return (
        <li class={`diagnostic ${String(entry['level'])}`}>
          {time} <strong>Diagnostic</strong> {String(entry['level'])} <code>{String(entry['code'])}</code>
        </li>
      );
    case 'run-end':
      return (
        <li class="run-end">
          {time} <strong>Run end</strong> · {String(entry['searches'])} searches, {String(entry['calls'])} calls, {String(entry['requests'])} requests, {formatBytes(Number(entry['requestBytes']))}
        </li>
      );
    case 'event':
      return <EventItem entry={entry} time={time} />;
    default:
      return (
        <li>
          {time} <strong>{entry.type}</strong>
        </li>
      );
  }
}

function EventItem({ entry, time }: { entry: Entry; time: preact.JSX.Element }) {
  const name = String(entry['event']);
  const data = (entry['data'] ?? {}) as Record<string, unknown>;
  if (name === 'turn-ledger') {
    const ledger = data['ledger'] as { requests: unknown[]; total: { bytes: number; tokens: number | null }; discovery: { calls: number; requests: number; bytes: number }; direct: { requests: number; bytes: number; computed: boolean } };
    return (
      <li class="ledger">
        {time} <strong>Ledger</strong> ({String(data['mode'])}): {ledger.requests.length} requests, {formatBytes(ledger.total.bytes)}
        {ledger.total.tokens !== null ? `, ${ledger.total.tokens} tokens` : ''}; discovery {ledger.discovery.calls} calls in {ledger.discovery.requests} requests ({formatBytes(ledger.discovery.bytes)}); direct mode
        would be {ledger.direct.requests} requests, {formatBytes(ledger.direct.bytes)}
        {ledger.direct.computed ? ' (computed)' : ''}
      </li>
    );
  }
  if (name === 'turn-message') {
    const content = typeof data['content'] === 'string' ? data['content'] : JSON.stringify(data['content'] ?? null);
    return (
      <li class={`message m-${String(data['role'])}`}>
        {time} <strong>{data['role'] === 'assistant' ? 'Assistant' : data['role'] === 'user' ? 'User' : String(data['role'])}</strong> {content.length > 300 ? `${content.slice(0, 300)}…` : content}
      </li>
    );
  }
  if (name === 'control-call') {
    // A code run that threw answers `ok` with an error result: the kernel marks it isError, and it shows as failed.
    const status = data['isError'] === true ? 'failed' : String(data['status']);
    return (
      <li class={`control ${status}`}>
        {time} <strong>{String(data['name'])}</strong> <Badge kind={status}>{status}</Badge>
        <span class="muted">
          {' '}
          ({String(data['mode'])} mode: {String(data['searches'] ?? 0)} searches, {String(data['describes'] ?? 0)} describes, {String(data['calls'] ?? 0)} calls)
        </span>
      </li>
    );
  }
  if (name === 'approval') {
    const record = data['record'] as { request?: { toolId?: string }; decision: string; by: string } | undefined;
    return (
      <li class="approval">
        {time} <strong>Approval</strong> {record?.request?.toolId ?? ''} → <Badge kind={record?.decision === 'allow' ? 'ok' : 'denied'}>{record?.decision ?? '?'}</Badge> by {record?.by ?? '?'}
      </li>
    );
  }
  if (name === 'loop-detection') {
    const warning = data['warning'] as { detector?: string; level?: string; name?: string; message?: string } | undefined;
    return (
      <li class="loop">
        {time} <strong>Loop detection</strong> <Badge kind="denied">{warning?.level ?? '?'}</Badge> {warning?.detector ?? ''} on {warning?.name ?? ''}
        {warning?.message ? ` — ${warning.message}` : ''}
      </li>
    );
  }
  return (
    <li class="event">
      {time} <strong>{name}</strong> <code class="muted">{JSON.stringify(data).slice(0, 200)}</code>
    </li>
  );
}
