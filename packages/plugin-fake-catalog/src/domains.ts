/**
 * Vocabulary for fake plugin tools: each domain has a fictional product,
 * things it manages, verbs, and parameters with descriptions. Search needs
 * varied, realistic-sounding text to rank; none of it comes from real tools.
 */
export interface ParamSpec {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'boolean' | 'number' | 'array' | 'enum';
  readonly description: string;
  readonly values?: readonly string[];
}

export interface Domain {
  readonly area: string;
  readonly product: string;
  readonly entities: readonly string[];
  readonly params: readonly ParamSpec[];
  readonly notes: readonly string[];
}

const p = (name: string, type: ParamSpec['type'], description: string, values?: readonly string[]): ParamSpec => ({
  name,
  type,
  description,
  ...(values ? { values } : {}),
});

export const VERBS: readonly { verb: string; readOnly: boolean; destructive: boolean }[] = [
  { verb: 'list', readOnly: true, destructive: false },
  { verb: 'get', readOnly: true, destructive: false },
  { verb: 'search', readOnly: true, destructive: false },
  { verb: 'create', readOnly: false, destructive: false },
  { verb: 'update', readOnly: false, destructive: false },
  { verb: 'delete', readOnly: false, destructive: true },
  { verb: 'archive', readOnly: false, destructive: true },
  { verb: 'export', readOnly: true, destructive: false },
  { verb: 'summarize', readOnly: true, destructive: false },
  { verb: 'assign', readOnly: false, destructive: false },
  { verb: 'schedule', readOnly: false, destructive: false },
  { verb: 'sync', readOnly: false, destructive: false },
];

export const DOMAINS: readonly Domain[] = [
  {
    area: 'customer relationship management',
    product: 'Relatia CRM',
    entities: ['contact', 'deal', 'company record', 'pipeline stage', 'sales activity'],
    params: [
      p('contact_id', 'string', 'Identifier of the contact'),
      p('deal_value', 'number', 'Expected deal value in the account currency'),
      p('owner_email', 'string', 'Email of the sales rep who owns the record'),
      p('stage', 'enum', 'Pipeline stage', ['lead', 'qualified', 'proposal', 'won', 'lost']),
    ],
    notes: [
      'Custom fields are returned under "properties".',
      'Deals closed more than two years ago are archived and only visible with include_archived.',
    ],
  },
  {
    area: 'calendar and scheduling',
    product: 'Chronoly Calendar',
    entities: ['event', 'meeting room booking', 'availability window', 'recurring series', 'attendee list'],
    params: [
      p('calendar_id', 'string', 'Calendar to use; "primary" for the user calendar'),
      p('start_time', 'string', 'Start as an RFC 3339 timestamp'),
      p('end_time', 'string', 'End as an RFC 3339 timestamp'),
      p('time_zone', 'string', 'IANA time zone such as Europe/Berlin'),
      p('attendees', 'array', 'Email addresses of the attendees'),
    ],
    notes: [
      'All-day events use dates without a time part.',
      'Recurring events are expanded into single instances when single_events is true.',
    ],
  },
  {
    area: 'container orchestration',
    product: 'Kubedeck',
    entities: ['pod', 'deployment', 'namespace', 'service', 'config map', 'node pool'],
    params: [
      p('namespace', 'string', 'Kubernetes namespace (default: "default")'),
      p('label_selector', 'string', 'Label selector such as app=web,tier=frontend'),
      p('replicas', 'integer', 'Desired number of replicas'),
      p('context', 'string', 'kubeconfig context to use'),
    ],
    notes: [
      'Changes are applied with server-side apply.',
      'Logs are truncated to the last 500 lines unless tail_lines is set.',
    ],
  },
  {
    area: 'invoicing and accounting',
    product: 'Ledgerly Books',
    entities: ['invoice', 'credit note', 'expense claim', 'ledger account', 'tax rate', 'bank reconciliation'],
    params: [
      p('invoice_number', 'string', 'Human-readable invoice number'),
      p('currency', 'string', 'ISO 4217 currency code'),
      p('due_date', 'string', 'Due date (YYYY-MM-DD)'),
      p('line_items', 'array', 'Line descriptions, each "quantity x description @ unit price"'),
      p('status', 'enum', 'Document status', ['draft', 'sent', 'paid', 'overdue', 'void']),
    ],
    notes: ['Amounts are in minor units (cents) unless decimal_amounts is true.', 'Voided invoices keep their number.'],
  },
  {
    area: 'issue tracking',
    product: 'Trackwise',
    entities: ['issue', 'sprint', 'epic', 'comment', 'workflow transition', 'label'],
    params: [
      p('project_key', 'string', 'Short project key such as WEB or OPS'),
      p('issue_key', 'string', 'Issue key such as WEB-123'),
      p('assignee', 'string', 'Username of the assignee'),
      p('priority', 'enum', 'Issue priority', ['lowest', 'low', 'medium', 'high', 'highest']),
      p('jql', 'string', 'Query in the tracker query language'),
    ],
    notes: ['Transitions must be valid for the issue workflow.', 'Mentions in comments notify the mentioned users.'],
  },
  {
    area: 'weather and climate data',
    product: 'Skycast',
    entities: ['forecast', 'historical observation', 'air quality reading', 'weather alert', 'marine forecast'],
    params: [
      p('latitude', 'number', 'Latitude in decimal degrees'),
      p('longitude', 'number', 'Longitude in decimal degrees'),
      p('units', 'enum', 'Unit system', ['metric', 'imperial']),
      p('days', 'integer', 'Number of forecast days (1-16)'),
    ],
    notes: ['Hourly values are in the local time of the location.', 'Historical data starts in 1940.'],
  },
  {
    area: 'flight and travel booking',
    product: 'Jetpath Travel',
    entities: ['flight offer', 'booking', 'seat map', 'airport', 'hotel stay', 'itinerary'],
    params: [
      p('origin', 'string', 'IATA code of the departure airport'),
      p('destination', 'string', 'IATA code of the arrival airport'),
      p('departure_date', 'string', 'Departure date (YYYY-MM-DD)'),
      p('passengers', 'integer', 'Number of adult passengers'),
      p('cabin', 'enum', 'Cabin class', ['economy', 'premium_economy', 'business', 'first']),
    ],
    notes: ['Prices are indicative until the booking is confirmed.', 'Offers expire after 30 minutes.'],
  },
  {
    area: 'source control and code review',
    product: 'Forgehub',
    entities: ['repository', 'pull request', 'branch', 'commit', 'review comment', 'release tag'],
    params: [
      p('owner', 'string', 'Repository owner (user or organization)'),
      p('repo', 'string', 'Repository name'),
      p('branch', 'string', 'Branch name'),
      p('pull_number', 'integer', 'Pull request number'),
      p('state', 'enum', 'Filter by state', ['open', 'closed', 'all']),
    ],
    notes: [
      'Results are paginated with page and per_page.',
      'Draft pull requests are included unless exclude_drafts is true.',
    ],
  },
  {
    area: 'document collaboration',
    product: 'Pagewell Docs',
    entities: ['document', 'page', 'shared folder', 'comment thread', 'template', 'revision'],
    params: [
      p('document_id', 'string', 'Identifier of the document'),
      p('folder_id', 'string', 'Parent folder identifier'),
      p('title', 'string', 'Document title'),
      p('content_markdown', 'string', 'Body in Markdown'),
    ],
    notes: [
      'Markdown tables and task lists are converted to native blocks.',
      'Revisions older than 90 days are compacted.',
    ],
  },
  {
    area: 'email',
    product: 'Mailroom',
    entities: ['message', 'draft', 'mail thread', 'label', 'mail filter', 'attachment'],
    params: [
      p('to', 'array', 'Recipient email addresses'),
      p('subject', 'string', 'Subject line'),
      p('body_text', 'string', 'Plain-text body'),
      p('thread_id', 'string', 'Thread to reply in'),
      p('query', 'string', 'Search query such as from:alice has:attachment'),
    ],
    notes: ['Messages larger than 25 MB are rejected.', 'Sending from an alias requires it to be verified.'],
  },
  {
    area: 'product analytics',
    product: 'Metricly',
    entities: ['dashboard', 'funnel', 'cohort', 'event stream', 'retention report', 'metric alert'],
    params: [
      p('event_name', 'string', 'Tracked event name'),
      p('from_date', 'string', 'Start date (YYYY-MM-DD)'),
      p('to_date', 'string', 'End date (YYYY-MM-DD)'),
      p('group_by', 'array', 'Properties to break down by'),
      p('interval', 'enum', 'Bucket size', ['hour', 'day', 'week', 'month']),
    ],
    notes: [
      'Data is sampled above 10 million events unless exact is true.',
      'Dates are interpreted in the project time zone.',
    ],
  },
  {
    area: 'payments',
    product: 'Payvault',
    entities: ['payment intent', 'refund', 'customer', 'subscription', 'payout', 'dispute'],
    params: [
      p('amount', 'integer', 'Amount in the smallest currency unit'),
      p('currency', 'string', 'Three-letter currency code'),
      p('customer_id', 'string', 'Customer identifier'),
      p('idempotency_key', 'string', 'Key that makes retries safe'),
    ],
    notes: ['Test mode keys never move real money.', 'Refunds cannot exceed the captured amount.'],
  },
  {
    area: 'object storage',
    product: 'Bucketry',
    entities: ['bucket', 'object', 'signed URL', 'lifecycle rule', 'object version'],
    params: [
      p('bucket', 'string', 'Bucket name'),
      p('key', 'string', 'Object key (path inside the bucket)'),
      p('prefix', 'string', 'Only keys starting with this prefix'),
      p('expires_in', 'integer', 'Lifetime of a signed URL in seconds'),
    ],
    notes: ['Listing returns at most 1000 keys per page.', 'Deleting a versioned object adds a delete marker.'],
  },
  {
    area: 'SQL databases',
    product: 'Tabula DB',
    entities: ['table', 'query result', 'schema migration', 'index', 'database snapshot'],
    params: [
      p('database', 'string', 'Database name'),
      p('sql', 'string', 'SQL statement to run'),
      p('read_only', 'boolean', 'Run inside a read-only transaction'),
      p('row_limit', 'integer', 'Maximum rows to return'),
    ],
    notes: ['Statements time out after 30 seconds.', 'Only SELECT is allowed when read_only is true.'],
  },
  {
    area: 'monitoring and incident response',
    product: 'Pagerly Ops',
    entities: ['incident', 'alert rule', 'on-call schedule', 'service health check', 'postmortem', 'log query'],
    params: [
      p('service', 'string', 'Service name'),
      p('severity', 'enum', 'Incident severity', ['sev1', 'sev2', 'sev3', 'sev4']),
      p('since', 'string', 'Relative time window such as 15m or 24h'),
      p('escalation_policy', 'string', 'Escalation policy identifier'),
    ],
    notes: ['Acknowledging an incident stops escalation.', 'Log queries scan at most 7 days.'],
  },
  {
    area: 'team chat',
    product: 'Huddle Chat',
    entities: ['channel', 'chat message', 'thread reply', 'reaction', 'user status', 'channel bookmark'],
    params: [
      p('channel_id', 'string', 'Channel identifier'),
      p('text', 'string', 'Message text (supports mrkdwn)'),
      p('thread_ts', 'string', 'Timestamp of the parent message'),
      p('emoji', 'string', 'Emoji name without colons'),
    ],
    notes: [
      'Bots can only post in channels they were invited to.',
      'Messages longer than 40,000 characters are truncated.',
    ],
  },
  {
    area: 'maps and geocoding',
    product: 'Waymark Maps',
    entities: ['place', 'route', 'geocode result', 'travel time matrix', 'nearby point of interest'],
    params: [
      p('address', 'string', 'Free-form address'),
      p('mode', 'enum', 'Travel mode', ['driving', 'walking', 'cycling', 'transit']),
      p('radius_m', 'integer', 'Search radius in meters'),
      p('language', 'string', 'Language of the results'),
    ],
    notes: ['Coordinates are WGS84.', 'Transit routes depend on published timetables.'],
  },
  {
    area: 'human resources',
    product: 'Peoplekit HR',
    entities: ['employee profile', 'time-off request', 'job opening', 'candidate', 'performance review', 'org chart'],
    params: [
      p('employee_id', 'string', 'Employee identifier'),
      p('department', 'string', 'Department name'),
      p('start_date', 'string', 'Start date (YYYY-MM-DD)'),
      p('leave_type', 'enum', 'Type of leave', ['vacation', 'sick', 'parental', 'unpaid']),
    ],
    notes: ['Salary fields need the hr_admin scope.', 'Approvals follow the reporting line.'],
  },
  {
    area: 'inventory and warehousing',
    product: 'Stockpile',
    entities: ['SKU', 'stock level', 'purchase order', 'shipment', 'warehouse location', 'stock transfer'],
    params: [
      p('sku', 'string', 'Stock keeping unit code'),
      p('warehouse_id', 'string', 'Warehouse identifier'),
      p('quantity', 'integer', 'Number of units'),
      p('reorder_point', 'integer', 'Level that triggers a reorder'),
    ],
    notes: [
      'Reserved stock is excluded from available quantity.',
      'Transfers between warehouses take effect on receipt.',
    ],
  },
  {
    area: 'social media publishing',
    product: 'Postline Social',
    entities: ['scheduled post', 'social account', 'engagement report', 'media asset', 'mention'],
    params: [
      p('account_ids', 'array', 'Social accounts to publish to'),
      p('caption', 'string', 'Post text'),
      p('publish_at', 'string', 'When to publish (RFC 3339)'),
      p('network', 'enum', 'Network', ['mastodon', 'bluesky', 'linkedin', 'instagram']),
    ],
    notes: ['Each network applies its own length limits.', 'Videos are transcoded before publishing.'],
  },
  {
    area: 'e-commerce storefront',
    product: 'Shopfront',
    entities: ['product listing', 'order', 'discount code', 'cart', 'product variant', 'customer review'],
    params: [
      p('order_id', 'string', 'Order identifier'),
      p('product_id', 'string', 'Product identifier'),
      p('price', 'number', 'Price in the store currency'),
      p('fulfillment_status', 'enum', 'Fulfillment status', ['unfulfilled', 'partial', 'fulfilled', 'returned']),
    ],
    notes: ['Prices include tax in tax-inclusive stores.', 'Discount codes are case-insensitive.'],
  },
  {
    area: 'continuous integration',
    product: 'Pipewright CI',
    entities: ['pipeline run', 'build job', 'test report', 'build artifact', 'deployment environment'],
    params: [
      p('pipeline_id', 'string', 'Pipeline identifier'),
      p('ref', 'string', 'Branch, tag or commit SHA'),
      p('variables', 'array', 'Variables as KEY=value'),
      p('environment', 'string', 'Deployment environment name'),
    ],
    notes: ['Artifacts are kept for 30 days.', 'Manual jobs need the maintainer role.'],
  },
  {
    area: 'customer support',
    product: 'Helpdeskr',
    entities: ['support ticket', 'macro', 'customer satisfaction survey', 'knowledge base article', 'agent queue'],
    params: [
      p('ticket_id', 'string', 'Ticket identifier'),
      p('requester_email', 'string', 'Email of the customer'),
      p('tags', 'array', 'Tags to set'),
      p('public_reply', 'boolean', 'Whether the reply is visible to the customer'),
    ],
    notes: ['Solved tickets close automatically after 4 days.', 'Internal notes are never emailed.'],
  },
  {
    area: 'music and media library',
    product: 'Tunevault',
    entities: ['track', 'playlist', 'album', 'podcast episode', 'listening history'],
    params: [
      p('playlist_id', 'string', 'Playlist identifier'),
      p('track_uris', 'array', 'Track URIs to add'),
      p('market', 'string', 'Country code for availability'),
      p('explicit', 'boolean', 'Include explicit content'),
    ],
    notes: ['Playlists hold at most 10,000 tracks.', 'Availability differs per market.'],
  },
];

export const GENERIC_PARAMS: readonly ParamSpec[] = [
  p('page', 'integer', 'Page number, starting at 1'),
  p('per_page', 'integer', 'Items per page (max 100)'),
  p('sort', 'enum', 'Sort order', ['created_asc', 'created_desc', 'updated_desc', 'name_asc']),
  p('include_archived', 'boolean', 'Also return archived items'),
  p('fields', 'array', 'Only return these fields'),
  p('dry_run', 'boolean', 'Validate the request without applying it'),
  p('workspace_id', 'string', 'Workspace or tenant identifier'),
  p('cursor', 'string', 'Opaque pagination cursor from the previous response'),
  p('notify', 'boolean', 'Send notifications to watchers'),
  p('metadata', 'string', 'Free-form JSON metadata stored with the item'),
  p('updated_since', 'string', 'Only items changed after this timestamp'),
  p('locale', 'string', 'Locale for formatted values, e.g. en-US'),
];

export const EXTRA_SENTENCES: readonly string[] = [
  'Requires an API token with the matching scope; requests without it fail with 403.',
  'Rate limited to 60 requests per minute per workspace; retry after the Retry-After header.',
  'The response includes a next_cursor field when more results are available.',
  'Timestamps in the response are ISO 8601 in UTC.',
  'Use the list operation first when you do not know the identifier.',
  'Returns a compact JSON object; pass fields to limit the payload.',
  'Errors carry a machine-readable code and a human-readable message.',
  'Changes are recorded in the audit log with the calling user.',
  'Identifiers are case-sensitive and stable across renames.',
  'Large results are truncated; narrow the query or paginate.',
  'When dry_run is set, the response shows what would change.',
  'Webhooks fire after the change is committed.',
];
