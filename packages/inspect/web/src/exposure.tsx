import { useEffect, useRef } from 'preact/hooks';
import { BarController, BarElement, CategoryScale, Chart, Legend, LogarithmicScale, Tooltip } from 'chart.js';
import type { Exposure, Request } from './api.js';
import { formatBytes, Status } from './bits.js';
import { useApi } from './use-api.js';

Chart.register(BarController, BarElement, CategoryScale, LogarithmicScale, Legend, Tooltip);

export function ExposureView({ run }: { run: Request }) {
  const loaded = useApi<Exposure>('exposure', { ...run });
  const data = loaded.data;
  return (
    <section aria-labelledby="exposure-heading">
      <h2 id="exposure-heading">What the model sees in each mode</h2>
      <Status loading={loaded.loading && !data} error={loaded.error} />
      {data && (
        <>
          <p>
            This run's setting: <code>{data.applied}</code>. Sizes are the OpenAI tool format; tokens are o200k_base.
          </p>
          <BytesChart data={data} />
          <table>
            <caption>Exposure size per mode</caption>
            <thead>
              <tr>
                <th scope="col">Mode</th>
                <th scope="col">Tools</th>
                <th scope="col">Tool bytes</th>
                <th scope="col">System bytes</th>
                <th scope="col">Total bytes</th>
                <th scope="col">Tokens</th>
              </tr>
            </thead>
            <tbody>
              {data.modes.map((mode) => (
                <tr key={mode.mode}>
                  <th scope="row">
                    {mode.mode}
                    {mode.answered !== mode.mode ? ` (fell back to ${mode.answered})` : ''}
                  </th>
                  <td>{mode.error ? <span class="error">{mode.error.code}</span> : mode.tools.length}</td>
                  <td>{formatBytes(mode.bytes.tools)}</td>
                  <td>{formatBytes(mode.bytes.system)}</td>
                  <td>{formatBytes(mode.bytes.total)}</td>
                  <td>{mode.tokens ? mode.tokens.total.toLocaleString('en') : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="modes">
            {data.modes.map((mode) => (
              <details key={mode.mode}>
                <summary>
                  {mode.mode}: {mode.tools.length} tools, {formatBytes(mode.bytes.total)}
                </summary>
                <h3>Tools</h3>
                <p>{mode.tools.slice(0, 60).join(', ') + (mode.tools.length > 60 ? `, … ${mode.tools.length - 60} more` : '') || 'none'}</p>
                <h3>System text</h3>
                <pre class="text" tabIndex={0}>
                  {mode.system || '(none)'}
                </pre>
              </details>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function BytesChart({ data }: { data: Exposure }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: data.modes.map((mode) => mode.mode),
        // Side by side, not stacked: on a log scale a stack's upper part would read wrong.
        datasets: [
          { label: 'tool bytes', data: data.modes.map((mode) => mode.bytes.tools), backgroundColor: '#1f5fa8' },
          { label: 'system bytes', data: data.modes.map((mode) => mode.bytes.system), backgroundColor: '#d0892b' },
          { label: 'tokens', data: data.modes.map((mode) => mode.tokens?.total ?? 0), backgroundColor: '#3b8a4a' },
        ],
      },
      // Logarithmic: direct mode is hundreds of times the search modes, whose bars vanish on a linear axis.
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { y: { type: 'logarithmic', min: 1, title: { display: true, text: 'bytes / tokens (log scale)' } } },
      },
    });
    return () => chart.destroy();
  }, [data]);
  const summary = data.modes.map((mode) => `${mode.mode} ${mode.bytes.total} bytes`).join(', ');
  return (
    <div class="chart">
      <canvas ref={canvas} role="img" aria-label={`Bytes and tokens per mode: ${summary}`} />
    </div>
  );
}
