/**
 * A loopback OTLP/HTTP receiver for tests: it accepts JSON exports on
 * `/v1/traces` and `/v1/metrics` (as a collector would, answering 200 with an
 * empty partial-success body), decodes them and keeps the spans and metric
 * points with their resource attributes, so a test asserts what actually
 * went over the wire.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

export interface ReceivedSpan {
  readonly name: string;
  readonly resource: Record<string, unknown>;
  readonly attributes: Record<string, unknown>;
}

export interface ReceivedMetric {
  readonly name: string;
  readonly resource: Record<string, unknown>;
  /** Data points' values (sums and gauges) or counts (histograms), with their attributes. */
  readonly points: readonly { readonly value: number; readonly attributes: Record<string, unknown> }[];
}

export interface OtlpReceiver {
  /** The base URL to configure as `telemetry.otlp.endpoint`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetric[];
  /** Headers of every export request, in order. */
  readonly headers: Record<string, string | string[] | undefined>[];
  /** Requests whose body was not OTLP JSON (content type and path). */
  readonly rejected: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  const rejected: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      headers.push(req.headers);
      let body: Record<string, unknown[]>;
      try {
        if (!String(req.headers['content-type']).includes('application/json')) throw new Error('not JSON');
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown[]>;
      } catch {
        rejected.push(`${req.headers['content-type']} ${req.url}`);
        return void res.writeHead(400).end();
      }
      if (req.url === '/v1/traces') spans.push(...decodeSpans(body));
      else if (req.url === '/v1/metrics') metrics.push(...decodeMetrics(body));
      else return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    metrics,
    headers,
    rejected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attributes(list: unknown): Record<string, unknown> {
  return Object.fromEntries(
    ((list ?? []) as KeyValue[]).map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue)),
    ]),
  );
}

function decodeSpans(body: Record<string, unknown[]>): ReceivedSpan[] {
  return (
    (body.resourceSpans ?? []) as {
      resource?: { attributes?: unknown };
      scopeSpans?: { spans?: { name: string; attributes?: unknown }[] }[];
    }[]
  ).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span) => ({
        name: span.name,
        resource: attributes(rs.resource?.attributes),
        attributes: attributes(span.attributes),
      })),
    ),
  );
}

type Point = { attributes?: unknown; asInt?: number | string; asDouble?: number; count?: number | string };
type Metric = {
  name: string;
  sum?: { dataPoints?: Point[] };
  gauge?: { dataPoints?: Point[] };
  histogram?: { dataPoints?: Point[] };
};

function decodeMetrics(body: Record<string, unknown[]>): ReceivedMetric[] {
  return (
    (body.resourceMetrics ?? []) as { resource?: { attributes?: unknown }; scopeMetrics?: { metrics?: Metric[] }[] }[]
  ).flatMap((rm) =>
    (rm.scopeMetrics ?? []).flatMap((sm) =>
      (sm.metrics ?? []).map((metric) => ({
        name: metric.name,
        resource: attributes(rm.resource?.attributes),
        points:
          (metric.sum ?? metric.gauge ?? metric.histogram)?.dataPoints?.map((p) => ({
            value: Number(p.asInt ?? p.asDouble ?? p.count ?? 0),
            attributes: attributes(p.attributes),
          })) ?? [],
      })),
    ),
  );
}
